//===- FindingRenderers.cpp - Findings as text, JSON, SARIF, JUnit --------===//

#include "opmig/audit/FindingRenderers.h"

#include "nlohmann/json.hpp"
#include "opmig/audit/Suppressions.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

namespace opmig::audit {

namespace {

constexpr const char *SarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char *InformationUri = "https://github.com/opmig/opmig";

/// What the renderers say about rules that have no file: the findings
/// opmig makes about suppressions and about files it cannot parse.
struct BuiltinRule {
  const char *Id;
  Severity Level;
  const char *Description;
  const char *Help;
};

constexpr BuiltinRule BuiltinRules[] = {
    {"opmig-suppression-without-reason", Severity::Error,
     "every inline suppression says why the finding is acceptable",
     "write the reason after the closing parenthesis: opmig: allow(rule-id) reason"},
    {"opmig-unparsable-file", Severity::Warning,
     "a file a rule applies to could not be parsed, so it was not checked",
     "fix the syntax error, or exclude the file from the rule"},
    {"opmig-unused-suppression", Severity::Warning,
     "an inline suppression covers a finding on its line or the next",
     "remove the suppression, or move it onto the finding's line or the line above"},
};

/// The metadata of every rule a report mentions: the rules that ran, then
/// ids of findings that name none of them, sorted by id.
struct RuleTable {
  struct Entry {
    std::string Id, Short, Full, Help;
    Severity Level;
    std::vector<std::string> Tags;
  };
  std::vector<Entry> Entries;
  std::map<std::string, size_t> IndexOf;

  explicit RuleTable(const AuditResult &Result) {
    for (const Rule &R : Result.Rules)
      add({R.Id, R.Message, R.Spec, R.Fix, R.Level, R.Profiles});
    for (const Finding &F : Result.Findings) {
      if (IndexOf.count(F.RuleId))
        continue;
      const BuiltinRule *B =
          llvm::find_if(BuiltinRules, [&](const BuiltinRule &B) { return F.RuleId == B.Id; });
      if (B != std::end(BuiltinRules))
        add({B->Id, B->Description, B->Description, B->Help, B->Level, {"opmig"}});
      else
        add({F.RuleId, F.RuleId, F.RuleId, F.Fix, F.Level, {}});
    }
    llvm::sort(Entries, [](const Entry &A, const Entry &B) { return A.Id < B.Id; });
    for (size_t I = 0; I < Entries.size(); ++I)
      IndexOf[Entries[I].Id] = I;
  }

private:
  void add(Entry E) {
    if (IndexOf.try_emplace(E.Id, Entries.size()).second)
      Entries.push_back(std::move(E));
  }
};

std::string location(const Finding &F) {
  return F.Line ? F.File + ":" + std::to_string(F.Line) : F.File;
}

/// `path:line: severity rule-id: message`, without a newline.
std::string findingLine(const Finding &F) {
  return location(F) + ": " + toString(F.Level) + " " + F.RuleId + ": " + F.Message;
}

size_t countState(const std::vector<Finding> &Findings, FindingState S) {
  return llvm::count_if(Findings, [&](const Finding &F) { return F.State == S; });
}

/// Percent-encodes what may not stand in a relative URI reference.
std::string uriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/!$&'()*+,;=:@").contains(C))
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

nlohmann::ordered_json sarifRule(const RuleTable::Entry &E) {
  nlohmann::ordered_json Rule;
  Rule["id"] = E.Id;
  Rule["shortDescription"] = {{"text", E.Short}};
  Rule["fullDescription"] = {{"text", E.Full}};
  Rule["help"] = {{"text", E.Help.empty() ? E.Full : E.Help}};
  Rule["defaultConfiguration"] = {{"level", toString(E.Level)}};
  Rule["properties"] = {{"tags", E.Tags}};
  return Rule;
}

nlohmann::ordered_json sarifResult(const Finding &F, size_t RuleIndex) {
  nlohmann::ordered_json Physical;
  Physical["artifactLocation"] = {{"uri", uriPath(F.File)}, {"uriBaseId", "%SRCROOT%"}};
  if (F.Line) {
    nlohmann::ordered_json Region = {{"startLine", F.Line}};
    if (F.Column)
      Region["startColumn"] = F.Column;
    Physical["region"] = Region;
  }
  nlohmann::ordered_json Result;
  Result["ruleId"] = F.RuleId;
  Result["ruleIndex"] = RuleIndex;
  Result["level"] = toString(F.Level);
  std::string Text = F.Message;
  if (!F.Fix.empty())
    Text += "\nfix: " + F.Fix;
  Result["message"] = {{"text", Text}};
  Result["locations"] = nlohmann::ordered_json::array({{{"physicalLocation", Physical}}});
  Result["partialFingerprints"] = {{"opmig/v1", F.Fingerprint}};
  Result["baselineState"] = F.State == FindingState::Baselined ? "unchanged" : "new";
  if (F.State == FindingState::Suppressed)
    Result["suppressions"] =
        nlohmann::ordered_json::array({{{"kind", "inSource"}, {"justification", F.Reason}}});
  return Result;
}

std::string xmlEscape(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      // XML 1.0 has no way to write other control characters.
      if (static_cast<unsigned char>(C) >= 0x20 || C == '\n' || C == '\t')
        Out += C;
    }
  }
  return Out;
}

} // namespace

std::string renderText(const AuditResult &Result) {
  std::string Out;
  for (const Finding &F : Result.Findings) {
    if (F.State == FindingState::Suppressed)
      continue;
    Out += findingLine(F);
    if (F.State == FindingState::Baselined)
      Out += " (baselined)";
    Out += "\n";
    if (!F.Fix.empty())
      Out += "  fix: " + F.Fix + "\n";
  }
  Out +=
      std::to_string(Result.Findings.size()) +
      " findings: " + std::to_string(countState(Result.Findings, FindingState::New)) + " new, " +
      std::to_string(countState(Result.Findings, FindingState::Baselined)) + " baselined, " +
      std::to_string(countState(Result.Findings, FindingState::Suppressed)) + " suppressed" +
      // Only when the specs' exemptions took something out, so that a
      // plain summary keeps its shape.
      (Result.Exempted.empty() ? "" : ", " + std::to_string(Result.Exempted.size()) + " exempted") +
      " (" + std::to_string(Result.Rules.size()) + " rules, " +
      std::to_string(Result.FilesAudited) + " files)\n";
  return Out;
}

std::string renderJson(const AuditResult &Result) {
  nlohmann::ordered_json Doc;
  Doc["schema"] = "opmig.audit/1";
  Doc["root"] = Result.Root;
  Doc["profile"] = Result.Profile;
  nlohmann::ordered_json Rules = nlohmann::ordered_json::array();
  for (const Rule &R : Result.Rules)
    Rules.push_back({{"id", R.Id},
                     {"severity", toString(R.Level)},
                     {"kind", R.Kind},
                     {"profiles", R.Profiles},
                     {"spec", R.Spec},
                     {"fix", R.Fix},
                     {"origin", R.Origin}});
  Doc["rules"] = Rules;
  nlohmann::ordered_json Findings = nlohmann::ordered_json::array();
  std::map<std::string, size_t> NewBySeverity = {{"error", 0}, {"warning", 0}, {"note", 0}};
  for (const Finding &F : Result.Findings) {
    nlohmann::ordered_json Entry = {{"rule", F.RuleId},
                                    {"severity", toString(F.Level)},
                                    {"file", F.File},
                                    {"line", F.Line},
                                    {"column", F.Column},
                                    {"message", F.Message},
                                    {"fix", F.Fix},
                                    {"fingerprint", F.Fingerprint},
                                    {"state", toString(F.State)}};
    if (F.State == FindingState::Suppressed)
      Entry["reason"] = F.Reason;
    if (F.State == FindingState::New)
      ++NewBySeverity[toString(F.Level)];
    Findings.push_back(Entry);
  }
  Doc["findings"] = Findings;
  nlohmann::ordered_json Exempted = nlohmann::ordered_json::array();
  for (const Finding &F : Result.Exempted)
    Exempted.push_back({{"rule", F.RuleId},
                        {"exemption", F.Exemption},
                        {"file", F.File},
                        {"line", F.Line},
                        {"message", F.Message}});
  Doc["exempted"] = Exempted;
  Doc["summary"] = {{"files", Result.FilesAudited},
                    {"rules", Result.Rules.size()},
                    {"new", countState(Result.Findings, FindingState::New)},
                    {"baselined", countState(Result.Findings, FindingState::Baselined)},
                    {"suppressed", countState(Result.Findings, FindingState::Suppressed)},
                    {"exempted", Result.Exempted.size()},
                    {"new_by_severity", NewBySeverity}};
  Doc["stats"] = {{"checker_seconds", Result.CheckerSeconds}};
  return dumpJson(Doc, 2) + "\n";
}

std::string renderSarif(const AuditResult &Result, const std::string &ToolVersion) {
  RuleTable Table(Result);
  nlohmann::ordered_json Rules = nlohmann::ordered_json::array();
  for (const RuleTable::Entry &E : Table.Entries)
    Rules.push_back(sarifRule(E));
  // Over the limit, new findings go first: they are what a reviewer must see.
  std::vector<const Finding *> Ordered;
  for (const Finding &F : Result.Findings)
    Ordered.push_back(&F);
  llvm::stable_sort(Ordered, [](const Finding *A, const Finding *B) {
    return (A->State == FindingState::New) > (B->State == FindingState::New);
  });
  if (Ordered.size() > SarifMaxResults)
    Ordered.resize(SarifMaxResults);
  llvm::stable_sort(Ordered, [](const Finding *A, const Finding *B) {
    return std::tie(A->File, A->Line, A->Column, A->RuleId) <
           std::tie(B->File, B->Line, B->Column, B->RuleId);
  });
  nlohmann::ordered_json Results = nlohmann::ordered_json::array();
  for (const Finding *F : Ordered)
    Results.push_back(sarifResult(*F, Table.IndexOf.at(F->RuleId)));
  nlohmann::ordered_json Driver = {{"name", "opmig"},
                                   {"version", ToolVersion},
                                   {"informationUri", InformationUri},
                                   {"rules", Rules}};
  nlohmann::ordered_json Run;
  Run["tool"] = {{"driver", Driver}};
  Run["results"] = Results;
  Run["properties"] = {{"profile", Result.Profile},
                       {"totalResults", Result.Findings.size()},
                       {"truncated", Result.Findings.size() > SarifMaxResults}};
  nlohmann::ordered_json Log;
  Log["$schema"] = SarifSchema;
  Log["version"] = "2.1.0";
  Log["runs"] = nlohmann::ordered_json::array({Run});
  return dumpJson(Log, 2) + "\n";
}

std::string renderJUnit(const AuditResult &Result, const std::string &SuiteName, Severity FailOn) {
  RuleTable Table(Result);
  std::map<std::string, std::vector<const Finding *>> Failing, Below;
  for (const Finding &F : Result.Findings)
    if (F.State == FindingState::New)
      (F.Level >= FailOn ? Failing : Below)[F.RuleId].push_back(&F);
  std::string Cases;
  for (const RuleTable::Entry &E : Table.Entries) {
    Cases +=
        "    <testcase classname=\"" + xmlEscape(SuiteName) + "\" name=\"" + xmlEscape(E.Id) + "\"";
    auto Fail = Failing.find(E.Id);
    auto Other = Below.find(E.Id);
    if (Fail == Failing.end() && Other == Below.end()) {
      Cases += "/>\n";
      continue;
    }
    Cases += ">\n";
    auto List = [](const std::vector<const Finding *> &Findings) {
      std::string Text;
      for (const Finding *F : Findings)
        Text += findingLine(*F) + "\n";
      return xmlEscape(Text);
    };
    if (Fail != Failing.end())
      Cases += "      <failure type=\"" + std::string(toString(E.Level)) + "\" message=\"" +
               std::to_string(Fail->second.size()) + " new finding(s)\">" + List(Fail->second) +
               "</failure>\n";
    if (Other != Below.end())
      Cases += "      <system-out>" + List(Other->second) + "</system-out>\n";
    Cases += "    </testcase>\n";
  }
  std::string Counts = "tests=\"" + std::to_string(Table.Entries.size()) + "\" failures=\"" +
                       std::to_string(Failing.size()) + "\"";
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xmlEscape(SuiteName) +
         "\" " + Counts + ">\n  <testsuite name=\"" + xmlEscape(SuiteName) + "\" " + Counts +
         " errors=\"0\" skipped=\"0\">\n" + Cases + "  </testsuite>\n</testsuites>\n";
}

} // namespace opmig::audit
