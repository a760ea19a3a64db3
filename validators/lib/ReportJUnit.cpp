//===- ReportJUnit.cpp - A validation report as JUnit XML -----------------===//

#include "opmig/report/FindingText.h"
#include "opmig/report/JUnit.h"
#include "opmig/validate/ReportRenderers.h"

#include "llvm/ADT/STLExtras.h"

namespace opmig::validate {

namespace {

using report::xmlEscape;

std::string testcase(const std::string &Suite, const std::string &Name, Status State,
                     const std::string &Reason, const std::vector<Finding> &Findings) {
  std::string Case =
      "    <testcase classname=\"" + xmlEscape(Suite) + "\" name=\"" + xmlEscape(Name) + "\"";
  if (State == Status::Pass)
    return Case + "/>\n";
  Case += ">\n";
  if (State == Status::Skip) {
    Case += "      <skipped message=\"" + xmlEscape(Reason) + "\"/>\n";
  } else {
    std::string Body;
    for (const Finding &F : Findings)
      Body += report::findingLine(F) + "\n";
    Case += "      <failure type=\"error\" message=\"" + xmlEscape(Reason) + "\">" +
            xmlEscape(Body.empty() ? Reason : Body) + "</failure>\n";
  }
  return Case + "    </testcase>\n";
}

struct Counts {
  size_t Tests = 0, Failures = 0, Skipped = 0;
  void add(Status S) {
    ++Tests;
    Failures += S == Status::Fail;
    Skipped += S == Status::Skip;
  }
  std::string attributes() const {
    return "tests=\"" + std::to_string(Tests) + "\" failures=\"" + std::to_string(Failures) +
           "\" errors=\"0\" skipped=\"" + std::to_string(Skipped) + "\"";
  }
};

std::string suite(const ValidationReport &Report, const LayerResult &L, Counts &Total) {
  std::string Name = "opmig validate " + Report.Domain + " " + L.Name;
  Counts Here;
  std::string Cases;
  if (L.Checks.empty()) {
    Here.add(L.State);
    Cases = testcase(Name, L.Name, L.State, L.Reason, {});
  }
  for (const CheckResult &C : L.Checks) {
    Here.add(C.State);
    Cases += testcase(Name, C.Name, C.State, C.Reason, C.Findings);
  }
  Total.Tests += Here.Tests;
  Total.Failures += Here.Failures;
  Total.Skipped += Here.Skipped;
  return "  <testsuite name=\"" + xmlEscape(Name) + "\" " + Here.attributes() + ">\n" + Cases +
         "  </testsuite>\n";
}

} // namespace

std::string renderValidationJUnit(const ValidationReport &Report) {
  Counts Total;
  std::string Suites;
  for (const LayerResult &L : Report.Layers)
    Suites += suite(Report, L, Total);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"opmig validate " +
         xmlEscape(Report.Domain) + "\" " + Total.attributes() + ">\n" + Suites + "</testsuites>\n";
}

} // namespace opmig::validate
