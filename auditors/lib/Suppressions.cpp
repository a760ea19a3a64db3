//===- Suppressions.cpp - Inline `opmig: allow(...)` comments -------------===//

#include "opmig/audit/Suppressions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace opmig::audit {

namespace {

constexpr llvm::StringLiteral Marker = "opmig: allow(";

/// Whether the text before the marker ends in a comment opener, so that a
/// string literal mentioning the syntax is not taken for a suppression.
bool followsCommentOpener(llvm::StringRef Before) {
  Before = Before.rtrim();
  return Before.ends_with("//") || Before.ends_with("#") || Before.ends_with("/*") ||
         Before.ends_with("<!--") || Before.ends_with("*");
}

std::optional<Suppression> parseLine(llvm::StringRef Line, const std::string &File,
                                     unsigned LineNo) {
  size_t At = Line.find(Marker);
  if (At == llvm::StringRef::npos || !followsCommentOpener(Line.take_front(At)))
    return std::nullopt;
  llvm::StringRef Rest = Line.drop_front(At + Marker.size());
  size_t Close = Rest.find(')');
  if (Close == llvm::StringRef::npos)
    return std::nullopt;
  Suppression S;
  S.File = File;
  S.Line = LineNo;
  llvm::SmallVector<llvm::StringRef, 4> Ids;
  Rest.take_front(Close).split(Ids, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Id : Ids)
    if (!Id.trim().empty())
      S.RuleIds.push_back(Id.trim().str());
  llvm::StringRef Reason = Rest.drop_front(Close + 1).trim();
  for (llvm::StringRef Closer : {"-->", "*/"})
    if (Reason.ends_with(Closer))
      Reason = Reason.drop_back(Closer.size()).rtrim();
  S.Reason = Reason.str();
  return S;
}

Finding aboutSuppression(const Suppression &S, const char *RuleId, Severity Level,
                         std::string Message, std::string Fix) {
  Finding F;
  F.Id = RuleId;
  F.Level = Level;
  F.File = S.File;
  F.Line = S.Line;
  F.Message = std::move(Message);
  F.Fix = std::move(Fix);
  return F;
}

} // namespace

std::vector<Suppression> findSuppressions(llvm::StringRef Text, const std::string &File) {
  std::vector<Suppression> Out;
  if (!Text.contains(Marker))
    return Out;
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    ++LineNo;
    if (auto S = parseLine(Line, File, LineNo))
      Out.push_back(std::move(*S));
    Text = Rest;
  }
  return Out;
}

void applySuppressions(const Repository &Repo, const std::set<std::string> &RulesRun,
                       std::vector<Finding> &Findings, const std::set<std::string> &KnownRules) {
  // Findings by file, so each suppression looks only at its own file's.
  std::map<std::string, std::vector<Finding *>> ByFile;
  for (Finding &F : Findings)
    ByFile[F.File].push_back(&F);
  std::vector<Finding> AboutSuppressions;
  for (const std::string &File : Repo.files()) {
    std::optional<std::string> Text = Repo.text(File);
    if (!Text)
      continue;
    for (const Suppression &S : findSuppressions(*Text, File)) {
      if (S.Reason.empty()) {
        AboutSuppressions.push_back(aboutSuppression(
            S, SuppressionWithoutReasonId, Severity::Error,
            "suppression of " + llvm::join(S.RuleIds, ", ") + " gives no reason",
            "say why after the closing parenthesis: opmig: allow(rule-id) reason"));
        continue;
      }
      for (const std::string &Id : S.RuleIds) {
        // A typo in the id would otherwise suppress nothing, silently.
        if (!KnownRules.empty() && !KnownRules.count(Id) && !RulesRun.count(Id)) {
          AboutSuppressions.push_back(aboutSuppression(
              S, UnusedSuppressionId, Severity::Warning,
              "suppression of " + Id + " names no known rule, so it suppresses nothing",
              "correct the rule id (the JSON and SARIF reports list the rules), or remove the "
              "suppression"));
          continue;
        }
        bool Used = false;
        for (Finding *F : ByFile[File])
          if (F->Id == Id && (F->Line == S.Line || F->Line == S.Line + 1)) {
            F->State = FindingState::Suppressed;
            F->Reason = S.Reason;
            Used = true;
          }
        if (!Used && RulesRun.count(Id))
          AboutSuppressions.push_back(aboutSuppression(
              S, UnusedSuppressionId, Severity::Warning,
              "suppression of " + Id + " matches no finding on this line or the next",
              "remove the suppression, or move it onto the finding's line or the line above"));
      }
    }
  }
  llvm::append_range(Findings, AboutSuppressions);
}

} // namespace opmig::audit
