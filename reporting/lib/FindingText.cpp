//===- FindingText.cpp - Findings as lines editors parse ------------------===//

#include "opmig/report/FindingText.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig::report {

std::string findingLine(const Finding &F) {
  std::string Location = F.File;
  if (F.Line) {
    Location += ":" + std::to_string(F.Line);
    if (F.Column)
      Location += ":" + std::to_string(F.Column);
  }
  return Location + ": " + toString(F.Level) + ": " + F.Message + " [" + F.Id + "]";
}

std::string renderFindingText(const Finding &F) {
  std::string Out = findingLine(F);
  if (F.State == FindingState::Baselined)
    Out += " (baselined)";
  Out += "\n";
  if (!F.Fix.empty())
    Out += "  fix: " + F.Fix + "\n";
  return Out;
}

std::string renderFindingsText(const std::vector<Finding> &Findings) {
  std::string Out;
  for (const Finding &F : Findings)
    if (F.State != FindingState::Suppressed)
      Out += renderFindingText(F);
  return Out;
}

size_t countInState(const std::vector<Finding> &Findings, FindingState S) {
  return llvm::count_if(Findings, [&](const Finding &F) { return F.State == S; });
}

} // namespace opmig::report
