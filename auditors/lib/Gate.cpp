//===- Gate.cpp - `.opmig.yaml` and the gate's run ------------------------===//

#include "opmig/audit/Gate.h"

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/Manifest.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::audit {

namespace {

std::string relativeTo(const std::string &Root, const std::string &Path) {
  llvm::StringRef P(Path), R(Root);
  R.consume_back("/");
  if (P.consume_front(R) && P.consume_front("/"))
    return P.str();
  return Path;
}

/// A rule whose fixtures fail, as findings at its rule file: the gate's
/// reports then carry them like any other problem.
void addRuleTestFindings(const std::string &Root, const std::vector<RuleTestOutcome> &Outcomes,
                         AuditResult &Combined) {
  for (const RuleTestOutcome &O : Outcomes)
    for (const std::string &Failure : O.Failures) {
      Finding F;
      F.RuleId = RuleTestRuleId;
      F.File = relativeTo(Root, O.Origin);
      // Fixture paths read better relative to the root, like finding paths.
      std::string Text = Failure;
      for (size_t At; (At = Text.find(Root + "/")) != std::string::npos;)
        Text.erase(At, Root.size() + 1);
      F.Message = "rule " + O.RuleId + " fails its fixtures: " + Text;
      F.Fix = "fix the rule or its annotated fixtures (opmig rules test " + F.File + ")";
      F.Fingerprint = opmig::sha256Hex(F.RuleId + "\n" + F.File + "\n" + F.Message).substr(0, 16);
      Combined.Findings.push_back(std::move(F));
    }
}

/// The config's exclude globs (validated when it was parsed).
std::vector<PathGlob> excludeGlobs(const GateConfig &Config) {
  std::vector<PathGlob> Globs;
  for (const std::string &Glob : Config.Exclude)
    Globs.push_back(llvm::cantFail(PathGlob::create(Glob)));
  return Globs;
}

/// Reviews each domain and reports its problems as findings.
llvm::Error addReviewFindings(const GateConfig &Config, const std::string &Root,
                              const std::vector<PathGlob> &Exclude, const std::string &LayersFile,
                              GateResult &Result) {
  std::vector<std::string> Domains =
      Config.ReviewDomains.empty() ? migratedDomains(Root, Exclude) : Config.ReviewDomains;
  for (const std::string &Domain : Domains) {
    ReviewOptions Options;
    Options.Target = Root;
    Options.Domain = Domain;
    Options.Exclude = Exclude;
    Options.LayersFile = LayersFile;
    if (Config.ReviewCompileCheck)
      Options.BuildCheck = BuildCheckOptions{};
    llvm::Expected<ReviewResult> Review = reviewMigration(Options);
    if (!Review)
      return Review.takeError();
    for (const ReviewFinding &RF : Review->Findings) {
      Finding F;
      F.RuleId = ReviewRuleId;
      F.File = RF.Path;
      F.Line = RF.Line;
      if (RF.Kind == ReviewKind::UntestedLayer)
        F.Level = Severity::Warning;
      F.Message = std::string(toString(RF.Kind)) + " in domain " + Domain + ": " + RF.Message;
      F.Fix = "run opmig review --target . --domain " + Domain + " and fix what it reports";
      F.Fingerprint = opmig::sha256Hex(F.RuleId + "\n" + F.File + "\n" + F.Message).substr(0, 16);
      Result.Combined.Findings.push_back(std::move(F));
    }
    Result.Reviews.push_back(std::move(*Review));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<GateResult> runGate(const GateConfig &Config, const std::string &RootArg,
                                   const std::string &BuiltinRulesDir,
                                   const std::string &LayersFile) {
  std::vector<std::string> RulePaths{BuiltinRulesDir};
  for (const std::string &Extra : Config.Rules)
    RulePaths.push_back(pathUnderRoot(RootArg, Extra));
  // Rule files and fixtures are reported relative to an absolute root.
  llvm::SmallString<256> AbsoluteRoot(RootArg);
  if (std::error_code EC = llvm::sys::fs::make_absolute(AbsoluteRoot))
    return inputError("cannot resolve ", RootArg, ": ", EC.message());
  llvm::sys::path::remove_dots(AbsoluteRoot, /*remove_dot_dot=*/true);
  std::string Root(AbsoluteRoot);
  std::vector<PathGlob> Exclude = excludeGlobs(Config);
  GateResult Result;
  Result.Combined.Root = Root;
  Result.Combined.Profile = Config.Profile;
  if (Config.RunAudit) {
    AuditOptions Options;
    Options.Root = Root;
    Options.Profile = Config.Profile;
    Options.RulePaths = RulePaths;
    Options.BuiltinRulesDir = BuiltinRulesDir;
    if (!Config.Baseline.empty())
      Options.BaselinePath = pathUnderRoot(Root, Config.Baseline);
    Options.FailOn = Config.FailOn;
    llvm::Expected<AuditResult> Audit = runAudit(Options);
    if (!Audit)
      return Audit.takeError();
    Result.Combined = std::move(*Audit);
    llvm::erase_if(Result.Combined.Findings,
                   [&](const Finding &F) { return matchesAny(Exclude, F.File); });
  }
  if (Config.RunReview)
    if (llvm::Error E = addReviewFindings(Config, Root, Exclude, LayersFile, Result))
      return E;
  if (Config.RunRuleTests) {
    llvm::Expected<std::vector<Rule>> Rules = loadRules(RulePaths, BuiltinRulesDir);
    if (!Rules)
      return Rules.takeError();
    llvm::Expected<std::vector<RuleTestOutcome>> Outcomes = runRuleTests(*Rules);
    if (!Outcomes)
      return Outcomes.takeError();
    Result.RuleTests = std::move(*Outcomes);
    addRuleTestFindings(Root, Result.RuleTests, Result.Combined);
  }
  sortFindings(Result.Combined.Findings);
  return Result;
}

std::string renderGateSummary(const GateResult &Result, Severity FailOn) {
  struct Counts {
    size_t New = 0, Baselined = 0, Suppressed = 0;
  };
  std::map<std::string, Counts> PerRule;
  size_t Failing = 0;
  for (const Finding &F : Result.Combined.Findings) {
    Counts &C = PerRule[F.RuleId];
    if (F.State == FindingState::New) {
      ++C.New;
      Failing += F.Level >= FailOn;
    }
    C.Baselined += F.State == FindingState::Baselined;
    C.Suppressed += F.State == FindingState::Suppressed;
  }
  std::string Out;
  for (const auto &[Id, C] : PerRule)
    Out += Id + ": " + std::to_string(C.New) + " new, " + std::to_string(C.Baselined) +
           " baselined, " + std::to_string(C.Suppressed) + " suppressed\n";
  if (!Result.RuleTests.empty()) {
    size_t Passed = llvm::count_if(Result.RuleTests,
                                   [](const RuleTestOutcome &O) { return O.Failures.empty(); });
    Out += "rule tests: " + std::to_string(Passed) + " of " +
           std::to_string(Result.RuleTests.size()) + " rules pass their fixtures\n";
  }
  // A build check that was asked for and could not run is said, so that a
  // pass does not read as "the domain compiles".
  for (const ReviewResult &R : Result.Reviews)
    Out +=
        "review " + R.Domain + ": " + toString(R.Outcome) +
        (R.Build.Ran || !R.Build.Asked ? ""
                                       : " (build check not run: " + R.Build.NotRunBecause + ")") +
        "\n";
  if (Failing == 0)
    return Out + "gate: passed\n";
  return Out + "gate: failed (" + std::to_string(Failing) + " new at or above " + toString(FailOn) +
         ")\n";
}

} // namespace opmig::audit
