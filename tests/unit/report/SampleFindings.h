//===- SampleFindings.h - Findings and rules the renderer tests share -----===//

#ifndef OPMIG_TESTS_REPORT_SAMPLEFINDINGS_H
#define OPMIG_TESTS_REPORT_SAMPLEFINDINGS_H

#include "opmig/report/RuleCatalog.h"
#include "opmig/support/Finding.h"

#include <vector>

namespace opmig::report {

/// A new, a baselined and a suppressed finding of one rule, and a warning
/// about a whole file of a rule the catalog does not know.
inline std::vector<Finding> sampleFindings() {
  Finding A;
  A.Id = "demo-abs-path";
  A.Producer = "audit";
  A.File = "docs/my guide.md";
  A.Line = 3;
  A.Column = 5;
  A.Message = "machine-local path /home/a";
  A.Fix = "use a repository-relative path";
  A.Fingerprint = "aaaaaaaaaaaaaaaa";
  Finding B = A;
  B.Line = 7;
  B.Fingerprint = "bbbbbbbbbbbbbbbb";
  B.State = FindingState::Baselined;
  Finding C = A;
  C.Line = 9;
  C.Fingerprint = "cccccccccccccccc";
  C.State = FindingState::Suppressed;
  C.Reason = "quoted log";
  Finding D;
  D.Id = "opmig-unused-suppression";
  D.Level = Severity::Warning;
  D.File = "src/a.py";
  D.Message = "suppression of x matches no finding on this line or the next";
  D.Fingerprint = "dddddddddddddddd";
  return {A, B, C, D};
}

inline RuleInfo sampleRule() {
  return {"demo-abs-path",
          "machine-local path",
          "do not write machine-local absolute paths",
          "use a repository-relative path",
          Severity::Error,
          {"demo"}};
}

} // namespace opmig::report

#endif
