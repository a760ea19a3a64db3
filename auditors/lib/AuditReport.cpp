//===- AuditReport.cpp - An audit's result as text, JSON, SARIF, JUnit ----===//

#include "opmig/audit/AuditReport.h"

#include "nlohmann/json.hpp"
#include "opmig/report/FindingJson.h"
#include "opmig/report/FindingText.h"
#include "opmig/report/JUnit.h"
#include "opmig/report/Sarif.h"
#include "opmig/support/JsonText.h"

#include <map>

namespace opmig::audit {

namespace {

report::RuleInfo builtinRule(const char *Id, Severity Level, const char *Description,
                             const char *Help) {
  return {Id, Description, Description, Help, Level, {"opmig"}};
}

nlohmann::ordered_json rulesJson(const std::vector<Rule> &Rules) {
  nlohmann::ordered_json Out = nlohmann::ordered_json::array();
  for (const Rule &R : Rules)
    Out.push_back({{"id", R.Id},
                   {"severity", toString(R.Level)},
                   {"kind", R.Kind},
                   {"profiles", R.Profiles},
                   {"spec", R.Spec},
                   {"fix", R.Fix},
                   {"origin", R.Origin}});
  return Out;
}

nlohmann::ordered_json exemptedJson(const std::vector<Finding> &Exempted) {
  nlohmann::ordered_json Out = nlohmann::ordered_json::array();
  for (const Finding &F : Exempted)
    Out.push_back({{"rule", F.Id},
                   {"exemption", F.Exemption},
                   {"file", F.File},
                   {"line", F.Line},
                   {"message", F.Message}});
  return Out;
}

nlohmann::ordered_json summaryJson(const AuditResult &Result) {
  std::map<std::string, size_t> NewBySeverity = {{"error", 0}, {"warning", 0}, {"note", 0}};
  for (const Finding &F : Result.Findings)
    if (F.State == FindingState::New)
      ++NewBySeverity[toString(F.Level)];
  const std::vector<Finding> &Findings = Result.Findings;
  return {{"files", Result.FilesAudited},
          {"rules", Result.Rules.size()},
          {"new", report::countInState(Findings, FindingState::New)},
          {"baselined", report::countInState(Findings, FindingState::Baselined)},
          {"suppressed", report::countInState(Findings, FindingState::Suppressed)},
          {"exempted", Result.Exempted.size()},
          {"new_by_severity", NewBySeverity}};
}

} // namespace

report::RuleInfo ruleInfo(const Rule &R) {
  return {R.Id, R.Message, R.Spec, R.Fix, R.Level, R.Profiles};
}

const std::vector<report::RuleInfo> &auditBuiltinRules() {
  static const std::vector<report::RuleInfo> Rules = {
      builtinRule("opmig-suppression-without-reason", Severity::Error,
                  "every inline suppression says why the finding is acceptable",
                  "write the reason after the closing parenthesis: opmig: allow(rule-id) reason"),
      builtinRule("opmig-unparsable-file", Severity::Warning,
                  "a file a rule applies to could not be parsed, so it was not checked",
                  "fix the syntax error, or exclude the file from the rule"),
      builtinRule("opmig-unused-suppression", Severity::Warning,
                  "an inline suppression covers a finding on its line or the next",
                  "remove the suppression, or move it onto the finding's line or the line above"),
  };
  return Rules;
}

report::RuleCatalog auditRuleCatalog(const AuditResult &Result) {
  std::vector<report::RuleInfo> Ran;
  for (const Rule &R : Result.Rules)
    Ran.push_back(ruleInfo(R));
  return report::RuleCatalog(std::move(Ran), auditBuiltinRules(), Result.Findings);
}

std::string renderText(const AuditResult &Result) {
  const std::vector<Finding> &Findings = Result.Findings;
  return report::renderFindingsText(Findings) + std::to_string(Findings.size()) +
         " findings: " + std::to_string(report::countInState(Findings, FindingState::New)) +
         " new, " + std::to_string(report::countInState(Findings, FindingState::Baselined)) +
         " baselined, " + std::to_string(report::countInState(Findings, FindingState::Suppressed)) +
         " suppressed" +
         // Only when the specs' exemptions took something out, so that a
         // plain summary keeps its shape.
         (Result.Exempted.empty() ? ""
                                  : ", " + std::to_string(Result.Exempted.size()) + " exempted") +
         " (" + std::to_string(Result.Rules.size()) + " rules, " +
         std::to_string(Result.FilesAudited) + " files)\n";
}

std::string renderJson(const AuditResult &Result) {
  nlohmann::ordered_json Doc;
  Doc["schema"] = "opmig.audit/1";
  Doc["root"] = Result.Root;
  Doc["profile"] = Result.Profile;
  Doc["rules"] = rulesJson(Result.Rules);
  Doc["findings"] = nlohmann::ordered_json::array();
  for (const Finding &F : Result.Findings)
    Doc["findings"].push_back(report::findingJson(F));
  Doc["exempted"] = exemptedJson(Result.Exempted);
  Doc["summary"] = summaryJson(Result);
  Doc["stats"] = {{"checker_seconds", Result.CheckerSeconds}};
  return dumpJson(Doc, 2) + "\n";
}

std::string renderSarif(const AuditResult &Result, const std::string &ToolVersion) {
  return report::renderSarif(Result.Findings, auditRuleCatalog(Result), ToolVersion,
                             {{"profile", Result.Profile}});
}

std::string renderJUnit(const AuditResult &Result, const std::string &SuiteName, Severity FailOn) {
  return report::renderJUnit(Result.Findings, auditRuleCatalog(Result), SuiteName, FailOn);
}

} // namespace opmig::audit
