//===- ReportText.cpp - A validation report for a terminal ----------------===//

#include "opmig/report/FindingText.h"
#include "opmig/validate/ReportRenderers.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace opmig::validate {

namespace {

std::string padded(const std::string &Text, size_t Width) {
  return Text + std::string(Width > Text.size() ? Width - Text.size() : 1, ' ');
}

size_t count(const ValidationReport &Report, Status S) {
  return llvm::count_if(Report.Layers, [S](const LayerResult &L) { return L.State == S; });
}

std::string verdict(const ValidationReport &Report) {
  auto Part = [&](Status S, const char *Word) {
    size_t N = count(Report, S);
    return std::to_string(N) + " layer" + (N == 1 ? "" : "s") + " " + Word;
  };
  return std::string("validate: ") + (Report.passed() ? "PASS" : "FAIL") + " (" +
         Part(Status::Pass, "passed") + ", " + Part(Status::Fail, "failed") + ", " +
         Part(Status::Skip, "skipped") + ")\n";
}

} // namespace

std::string renderValidationText(const ValidationReport &Report) {
  std::string Out =
      "domain " + Report.Domain + " (profile " + Report.Profile + ") in " + Report.Target + "\n";
  size_t Width = 0;
  for (const LayerResult &L : Report.Layers)
    for (const CheckResult &C : L.Checks)
      Width = std::max(Width, C.Name.size() + 2);
  for (const LayerResult &L : Report.Layers) {
    Out += padded(L.Name, Width + 2) + padded(toString(L.State), 6) + L.Reason + "\n";
    for (const CheckResult &C : L.Checks)
      Out += "  " + padded(C.Name, Width) + padded(toString(C.State), 6) + C.Reason + "\n";
  }
  for (const std::string &Note : Report.Notes)
    Out += "note: " + Note + "\n";
  std::vector<Finding> Findings = Report.findings();
  if (!Findings.empty()) {
    Out += "\n";
    for (const Finding &F : Findings)
      Out += report::findingLine(F) + "\n";
  }
  return Out + verdict(Report);
}

} // namespace opmig::validate
