//===- ReportJson.cpp - A validation report as opmig.validate/1 -----------===//

#include "opmig/report/FindingJson.h"
#include "opmig/support/JsonText.h"
#include "opmig/validate/ReportRenderers.h"

namespace opmig::validate {

namespace {

nlohmann::ordered_json checkJson(const CheckResult &C) {
  return {{"name", C.Name},
          {"status", toString(C.State)},
          {"reason", C.Reason},
          {"figures", C.Figures}};
}

nlohmann::ordered_json layerJson(const LayerResult &L) {
  nlohmann::ordered_json Checks = nlohmann::ordered_json::array();
  for (const CheckResult &C : L.Checks)
    Checks.push_back(checkJson(C));
  return {
      {"name", L.Name}, {"status", toString(L.State)}, {"reason", L.Reason}, {"checks", Checks}};
}

} // namespace

std::string renderValidationJson(const ValidationReport &Report) {
  nlohmann::ordered_json Layers = nlohmann::ordered_json::array();
  for (const LayerResult &L : Report.Layers)
    Layers.push_back(layerJson(L));
  nlohmann::ordered_json Findings = nlohmann::ordered_json::array();
  for (const Finding &F : Report.findings())
    Findings.push_back(report::findingJson(F));
  nlohmann::ordered_json Doc = {{"schema", ValidateSchemaVersion}, {"target", Report.Target},
                                {"domain", Report.Domain},         {"profile", Report.Profile},
                                {"passed", Report.passed()},       {"layers", Layers},
                                {"notes", Report.Notes},           {"findings", Findings}};
  return dumpJson(Doc, 2) + "\n";
}

} // namespace opmig::validate
