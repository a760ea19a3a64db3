//===- Sarif.cpp - Findings as a SARIF 2.1.0 log --------------------------===//

#include "opmig/report/Sarif.h"

#include "opmig/support/JsonText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <tuple>

namespace opmig::report {

namespace {

constexpr const char *SarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char *InformationUri = "https://github.com/opmig/opmig";

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

nlohmann::ordered_json sarifRule(const RuleInfo &Info) {
  nlohmann::ordered_json Rule;
  Rule["id"] = Info.Id;
  Rule["shortDescription"] = {{"text", Info.Summary}};
  Rule["fullDescription"] = {{"text", Info.Description}};
  Rule["help"] = {{"text", Info.Help.empty() ? Info.Description : Info.Help}};
  Rule["defaultConfiguration"] = {{"level", toString(Info.Level)}};
  Rule["properties"] = {{"tags", Info.Tags}};
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
  Result["ruleId"] = F.Id;
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

/// At most SarifMaxResults findings, in report order. Over the limit, new
/// findings go first: they are what a reviewer must see.
std::vector<const Finding *> reportedFindings(const std::vector<Finding> &Findings) {
  std::vector<const Finding *> Ordered;
  for (const Finding &F : Findings)
    Ordered.push_back(&F);
  llvm::stable_sort(Ordered, [](const Finding *A, const Finding *B) {
    return (A->State == FindingState::New) > (B->State == FindingState::New);
  });
  if (Ordered.size() > SarifMaxResults)
    Ordered.resize(SarifMaxResults);
  llvm::stable_sort(Ordered, [](const Finding *A, const Finding *B) {
    return std::tie(A->File, A->Line, A->Column, A->Id) <
           std::tie(B->File, B->Line, B->Column, B->Id);
  });
  return Ordered;
}

} // namespace

std::string renderSarif(const std::vector<Finding> &Findings, const RuleCatalog &Rules,
                        const std::string &ToolVersion, nlohmann::ordered_json RunProperties) {
  nlohmann::ordered_json RuleRows = nlohmann::ordered_json::array();
  for (const RuleInfo &Info : Rules.rules())
    RuleRows.push_back(sarifRule(Info));
  nlohmann::ordered_json Results = nlohmann::ordered_json::array();
  for (const Finding *F : reportedFindings(Findings))
    Results.push_back(sarifResult(*F, Rules.indexOf(F->Id)));
  nlohmann::ordered_json Driver = {{"name", "opmig"},
                                   {"version", ToolVersion},
                                   {"informationUri", InformationUri},
                                   {"rules", RuleRows}};
  RunProperties["totalResults"] = Findings.size();
  RunProperties["truncated"] = Findings.size() > SarifMaxResults;
  nlohmann::ordered_json Run;
  Run["tool"] = {{"driver", Driver}};
  Run["results"] = Results;
  Run["properties"] = RunProperties;
  nlohmann::ordered_json Log;
  Log["$schema"] = SarifSchema;
  Log["version"] = "2.1.0";
  Log["runs"] = nlohmann::ordered_json::array({Run});
  return dumpJson(Log, 2) + "\n";
}

} // namespace opmig::report
