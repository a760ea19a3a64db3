//===- GateReport.cpp - What `opmig gate` prints and writes ---------------===//

#include "opmig/audit/GateReport.h"

#include "opmig/audit/AuditReport.h"
#include "opmig/report/JUnit.h"
#include "opmig/report/Sarif.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

namespace opmig::audit {

namespace {

/// The audit's rules that ran and, when a domain was reviewed, every review
/// kind; the rows of every other id come from the audit's own rules and the
/// rule tests'.
report::RuleCatalog gateRuleCatalog(const GateResult &Result) {
  std::vector<report::RuleInfo> Ran;
  for (const Rule &R : Result.Combined.Rules)
    Ran.push_back(ruleInfo(R));
  if (!Result.Reviews.empty())
    llvm::append_range(Ran, reviewRules());
  std::vector<report::RuleInfo> Known = auditBuiltinRules();
  Known.push_back({RuleTestRuleId,
                   "a rule fails its annotated fixtures",
                   "a rule fires where its fixtures say it must not, or not where they say it must",
                   "fix the rule or its fixtures (opmig rules test)",
                   Severity::Error,
                   {"opmig"}});
  return report::RuleCatalog(std::move(Ran), Known, Result.Combined.Findings);
}

} // namespace

std::string renderGateSummary(const GateResult &Result, Severity FailOn) {
  struct Counts {
    size_t New = 0, Baselined = 0, Suppressed = 0;
  };
  std::map<std::string, Counts> PerRule;
  size_t Failing = 0;
  for (const Finding &F : Result.Combined.Findings) {
    Counts &C = PerRule[F.Id];
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
  for (const std::string &Line : Result.Validations)
    Out += Line + "\n";
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
std::string renderGateSarif(const GateResult &Result, const std::string &ToolVersion) {
  return report::renderSarif(Result.Combined.Findings, gateRuleCatalog(Result), ToolVersion,
                             {{"profile", Result.Combined.Profile}});
}

std::string renderGateJUnit(const GateResult &Result, Severity FailOn) {
  return report::renderJUnit(Result.Combined.Findings, gateRuleCatalog(Result), "opmig-gate",
                             FailOn);
}

} // namespace opmig::audit
