//===- Audit.cpp - Run rules over a repository ----------------------------===//

#include "opmig/audit/Audit.h"

#include "Git.h"
#include "opmig/audit/Baseline.h"
#include "opmig/audit/Checker.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/audit/Suppressions.h"
#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <tuple>

namespace opmig::audit {

namespace {

auto findingKey(const Finding &F) { return std::tie(F.File, F.Line, F.Column, F.Id, F.Message); }

/// Files changed since `Ref` (deleted ones included) plus untracked ones,
/// relative to `Root`.
llvm::Expected<std::set<std::string>> changedFiles(const std::string &Root,
                                                   const std::string &Ref) {
  // A ref is never an option: `--output=/path` would make git write there.
  if (Ref.empty() || Ref[0] == '-' ||
      llvm::any_of(Ref, [](char C) { return static_cast<unsigned char>(C) < 0x20; }))
    return inputError("'", Ref, "'", inputs::ChangedSince,
                      " is not a git ref to compare with; name a branch, tag or commit (e.g. "
                      "origin/main)");
  auto Diff =
      runGit(Root, {"diff", "--name-only", "-z", "--relative", "--end-of-options", Ref, "--"});
  if (!Diff)
    return Diff.takeError();
  if (!*Diff)
    return inputError("comparing with a git ref", inputs::ChangedSince,
                      " needs git, which is not installed");
  if ((*Diff)->ExitCode != 0)
    return inputError("git cannot compare '", Root, "' with '", Ref, "'", inputs::ChangedSince,
                      ": ", llvm::StringRef((*Diff)->Stderr).trim().str());
  auto Untracked = runGit(Root, {"ls-files", "-z", "--others", "--exclude-standard"});
  if (!Untracked)
    return Untracked.takeError();
  std::set<std::string> Changed;
  for (std::string &Path : splitNul((*Diff)->Stdout))
    Changed.insert(std::move(Path));
  if (*Untracked && (*Untracked)->ExitCode == 0)
    for (std::string &Path : splitNul((*Untracked)->Stdout))
      Changed.insert(std::move(Path));
  return Changed;
}

/// A finding about a folder (a forbidden directory) counts as changed when
/// a file in it changed.
bool touchesChanged(const Finding &F, const std::set<std::string> &Changed) {
  if (Changed.count(F.File))
    return true;
  auto It = Changed.lower_bound(F.File + "/");
  return It != Changed.end() && llvm::StringRef(*It).starts_with(F.File + "/");
}

llvm::Error checkProfile(const std::vector<Rule> &Rules, const std::string &Profile) {
  if (Profile == "any")
    return llvm::Error::success();
  std::set<std::string> Known;
  for (const Rule &R : Rules)
    Known.insert(R.Profiles.begin(), R.Profiles.end());
  if (Known.count(Profile))
    return llvm::Error::success();
  Known.erase("any");
  Known.insert("any");
  return inputError("unknown profile '", Profile, "'", inputs::Profile,
                    "; the loaded rules know: ", llvm::join(Known, ", "));
}

} // namespace

void sortFindings(std::vector<Finding> &Findings) {
  llvm::stable_sort(
      Findings, [](const Finding &A, const Finding &B) { return findingKey(A) < findingKey(B); });
}

bool hasFailures(const std::vector<Finding> &Findings, Severity FailOn) {
  return llvm::any_of(Findings, [&](const Finding &F) {
    return F.State == FindingState::New && F.Level >= FailOn;
  });
}

llvm::Expected<AuditResult> auditRepository(const Repository &Repo, std::vector<Rule> Rules,
                                            const std::set<std::string> &KnownRuleIds) {
  AuditResult Result;
  Result.Root = Repo.root();
  Result.FilesAudited = Repo.files().size();
  for (const auto &C : builtinCheckers()) {
    std::vector<const Rule *> OfKind;
    for (const Rule &R : Rules)
      if (R.Kind == C->kind())
        OfKind.push_back(&R);
    if (OfKind.empty())
      continue;
    auto Start = std::chrono::steady_clock::now();
    if (llvm::Error E = C->check(Repo, OfKind, Result.Findings))
      return E;
    Result.CheckerSeconds[C->kind()] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  }
  // What the spec excepts is no violation: set it apart before suppressions,
  // so that an inline allow() never needs to cover it.
  auto Exempt = std::stable_partition(Result.Findings.begin(), Result.Findings.end(),
                                      [](const Finding &F) { return F.Exemption.empty(); });
  Result.Exempted.assign(std::make_move_iterator(Exempt),
                         std::make_move_iterator(Result.Findings.end()));
  Result.Findings.erase(Exempt, Result.Findings.end());
  sortFindings(Result.Exempted);
  sortFindings(Result.Findings);
  // A checker may reach one place twice (two globs, two passes): once is enough.
  Result.Findings.erase(std::unique(Result.Findings.begin(), Result.Findings.end(),
                                    [](const Finding &A, const Finding &B) {
                                      return findingKey(A) == findingKey(B);
                                    }),
                        Result.Findings.end());
  std::set<std::string> Ids;
  for (const Rule &R : Rules)
    Ids.insert(R.Id);
  applySuppressions(Repo, Ids, Result.Findings, KnownRuleIds);
  sortFindings(Result.Findings);
  computeFingerprints(Repo, Result.Findings);
  for (std::vector<Finding> *List : {&Result.Findings, &Result.Exempted})
    for (Finding &F : *List)
      F.Producer = AuditProducer;
  Result.Rules = std::move(Rules);
  return Result;
}

llvm::Expected<AuditResult> runAudit(const AuditOptions &Options) {
  llvm::Expected<std::vector<Rule>> Loaded = loadRules(Options.RulePaths, Options.BuiltinRulesDir);
  if (!Loaded)
    return Loaded.takeError();
  if (llvm::Error E = checkProfile(*Loaded, Options.Profile))
    return E;
  std::set<std::string> KnownRuleIds;
  for (const Rule &R : *Loaded)
    KnownRuleIds.insert(R.Id);
  std::vector<Rule> Rules;
  for (Rule &R : *Loaded)
    if (inProfile(R, Options.Profile))
      Rules.push_back(std::move(R));
  llvm::Expected<Repository> Repo = Repository::open(Options.Root);
  if (!Repo)
    return Repo.takeError();
  // Read before the audit, so that a bad baseline or ref fails fast.
  std::set<std::string> Known;
  if (!Options.BaselinePath.empty()) {
    auto Baseline = readBaseline(Options.BaselinePath);
    if (!Baseline)
      return Baseline.takeError();
    Known = std::move(*Baseline);
  }
  std::optional<std::set<std::string>> Changed;
  if (!Options.ChangedSince.empty()) {
    auto Files = changedFiles(Options.Root, Options.ChangedSince);
    if (!Files)
      return Files.takeError();
    Changed = std::move(*Files);
  }
  llvm::Expected<AuditResult> Result = auditRepository(*Repo, std::move(Rules), KnownRuleIds);
  if (!Result)
    return Result.takeError();
  Result->Profile = Options.Profile;
  applyBaseline(Known, Result->Findings);
  if (Changed)
    llvm::erase_if(Result->Findings,
                   [&](const Finding &F) { return !touchesChanged(F, *Changed); });
  return Result;
}

} // namespace opmig::audit
