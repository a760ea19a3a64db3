//===- ReviewReport.cpp - A review's result as text, JSON, SARIF, JUnit ---===//

#include "opmig/audit/ReviewReport.h"

#include "nlohmann/json.hpp"
#include "opmig/report/FindingText.h"
#include "opmig/report/JUnit.h"
#include "opmig/report/Sarif.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

/// `build check (nvcc, host objects for sm_90): 5 of 5 TUs compile; linked
/// against ...: no undefined symbol`, or why it did not run: the failing
/// TUs' first errors and the undefined symbols are their findings.
std::string renderBuildLine(const BuildCheckResult &Build) {
  if (!Build.Ran)
    return "build check: not run (" + Build.NotRunBecause + ")\n";
  std::string Line = "build check (nvcc, host objects for " + Build.GpuArch +
                     "): " + std::to_string(Build.compiling()) + " of " +
                     std::to_string(Build.TUs.size()) + " TU" + (Build.TUs.size() == 1 ? "" : "s") +
                     " compile";
  if (!Build.Linked)
    return Line + "; not linked (" + Build.LinkNotRunBecause + ")\n";
  if (!Build.Link.Linked)
    return Line + "; the link fails\n";
  size_t Missing = Build.Link.Unresolved.size();
  return Line + "; linked against " + Build.Link.LinkedAgainst + ": " +
         (Missing ? std::to_string(Missing) + " undefined symbol" + (Missing == 1 ? "" : "s")
                  : "no undefined symbol") +
         "\n";
}

nlohmann::ordered_json linkJson(const BuildCheckResult &Build) {
  nlohmann::ordered_json Unresolved = nlohmann::ordered_json::array();
  for (const UnresolvedSymbol &S : Build.Link.Unresolved)
    Unresolved.push_back({{"symbol", S.Name}, {"mangled", S.Mangled}});
  return {{"ran", Build.Linked},
          {"not_run_because", Build.LinkNotRunBecause},
          {"links", Build.Linked && Build.Link.links()},
          {"link_error", Build.Link.LinkError},
          {"linked_against", Build.Link.LinkedAgainst},
          {"undefined_symbols", Unresolved}};
}

nlohmann::ordered_json buildJson(const BuildCheckResult &Build) {
  nlohmann::ordered_json TUs = nlohmann::ordered_json::array();
  for (const CompiledTU &TU : Build.TUs) {
    nlohmann::ordered_json Errors = nlohmann::ordered_json::array();
    for (const opmig::CompilerError &E : TU.Errors)
      Errors.push_back({{"file", E.File}, {"line", E.Line}, {"message", E.Message}});
    TUs.push_back({{"path", TU.Path},
                   {"compiles", TU.Compiles},
                   {"object_reused", TU.Reused},
                   {"errors", Errors}});
  }
  return {{"ran", Build.Ran},
          {"not_run_because", Build.NotRunBecause},
          {"nvcc", Build.Nvcc},
          {"gpu_arch", Build.GpuArch},
          {"compiling", Build.compiling()},
          {"total", Build.TUs.size()},
          {"reused", Build.reused()},
          {"tus", TUs},
          {"link", linkJson(Build)}};
}

/// A layer's cell of the matrix: the tests and the validate reports that
/// cover it (`no test` when none), its placeholders, then what a report
/// said without proving it (`; opmig validate (v.json) failed its parity
/// layer`).
std::string coverageCell(const LayerCoverage &C) {
  std::vector<std::string> By = C.Tests;
  bool Proved = C.provedByValidate();
  std::string Said;
  for (const ValidateEvidence &E : C.Validate) {
    if (Proved && E.Status == "pass") {
      By.push_back("by opmig validate (" + E.Report + ")");
      continue;
    }
    Said += "; " + describe(E, C.ProvedByValidate);
  }
  std::string Cell = By.empty() ? "no test" : llvm::join(By, ", ");
  if (!C.Placeholders.empty())
    Cell += " (placeholder: " + llvm::join(C.Placeholders, ", ") + ")";
  return Cell + Said;
}

nlohmann::ordered_json coverageJson(const LayerCoverage &C) {
  nlohmann::ordered_json Validate = nlohmann::ordered_json::array();
  for (const ValidateEvidence &E : C.Validate)
    Validate.push_back({{"report", E.Report}, {"status", E.Status}, {"reason", E.Reason}});
  return {{"layer", C.Id},
          {"title", C.Title},
          {"spec", C.Spec},
          {"required", C.Required},
          {"covered", C.covered()},
          {"tests", C.Tests},
          {"placeholders", C.Placeholders},
          {"validate_layer", C.ProvedByValidate},
          {"proved_by_validate", C.provedByValidate()},
          {"validate", Validate}};
}

nlohmann::ordered_json validationReportsJson(const std::vector<ValidationReportUse> &Uses) {
  nlohmann::ordered_json Reports = nlohmann::ordered_json::array();
  for (const ValidationReportUse &U : Uses)
    Reports.push_back({{"path", U.Path}, {"target", U.Target}, {"stale_because", U.StaleBecause}});
  return Reports;
}

/// Every review kind is a rule, so that a viewer lists what passed too.
report::RuleCatalog reviewCatalog(const ReviewResult &Result) {
  return report::RuleCatalog(reviewRules(), {}, Result.Findings);
}

} // namespace

std::string renderReviewText(const ReviewResult &Result) {
  std::string Out;
  for (const Finding &F : Result.Findings)
    Out += report::findingLine(F) + "\n";
  if (!Result.ClosureNotCompared.empty())
    Out += "note: closure not recomputed: " + Result.ClosureNotCompared + "\n";
  Out += renderBuildLine(Result.Build);
  if (size_t Reused = Result.Build.reused())
    Out += "note: the build check reused " + std::to_string(Reused) + " of " +
           std::to_string(Result.Build.TUs.size()) +
           " objects: their inputs are unchanged since an earlier build\n";
  if (!Result.AllLayersRequiredBecause.empty())
    Out += "note: every validation layer is required: " + Result.AllLayersRequiredBecause + "\n";
  for (const ValidationReportUse &U : Result.Validation)
    if (!U.StaleBecause.empty())
      Out += "note: validate report " + U.Path + ": " + U.StaleBecause + "\n";
  if (!Result.Coverage.empty())
    Out += "validation layers:\n";
  for (const LayerCoverage &C : Result.Coverage)
    Out += "  " + C.Id + std::string(C.Id.size() < 14 ? 14 - C.Id.size() : 1, ' ') +
           (C.Required ? "required  " : "optional  ") + coverageCell(C) + "\n";
  return Out + "verdict: " + toString(Result.Outcome) + " (" + llvm::join(Result.Reasons, "; ") +
         ")\n";
}

std::string renderReviewJson(const ReviewResult &Result) {
  nlohmann::ordered_json Doc;
  Doc["schema"] = "opmig.review/1";
  Doc["domain"] = Result.Domain;
  Doc["manifest"] = Result.ManifestPath;
  Doc["profile"] = Result.Profile;
  Doc["spec"] = Result.Spec;
  Doc["findings"] = nlohmann::ordered_json::array();
  for (const Finding &F : Result.Findings)
    Doc["findings"].push_back(
        {{"kind", F.Id}, {"path", F.File}, {"line", F.Line}, {"message", F.Message}});
  Doc["build_check"] = buildJson(Result.Build);
  Doc["every_layer_required_because"] = Result.AllLayersRequiredBecause;
  Doc["coverage"] = nlohmann::ordered_json::array();
  for (const LayerCoverage &C : Result.Coverage)
    Doc["coverage"].push_back(coverageJson(C));
  Doc["validation_reports"] = validationReportsJson(Result.Validation);
  Doc["closure_not_compared"] = Result.ClosureNotCompared;
  Doc["verdict"] = toString(Result.Outcome);
  Doc["reasons"] = Result.Reasons;
  return dumpJson(Doc, 2) + "\n";
}

std::string renderReviewSarif(const ReviewResult &Result, const std::string &ToolVersion) {
  return report::renderSarif(Result.Findings, reviewCatalog(Result), ToolVersion,
                             {{"domain", Result.Domain},
                              {"manifest", Result.ManifestPath},
                              {"verdict", toString(Result.Outcome)},
                              {"validation_reports", validationReportsJson(Result.Validation)}});
}

std::string renderReviewJUnit(const ReviewResult &Result) {
  return report::renderJUnit(Result.Findings, reviewCatalog(Result),
                             "opmig review " + Result.Domain, Severity::Warning);
}

} // namespace opmig::audit
