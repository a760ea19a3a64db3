//===- JUnit.h - Findings as JUnit XML --------------------------*- C++ -*-===//
//
// For CI systems that show test reports: a testsuite with one testcase per
// rule of a RuleCatalog, failing with its new findings at or above the
// failing severity:
//
//   <testcase classname="opmig gate" name="demo-abs-path">
//     <failure type="error" message="1 new finding(s)">docs/a.md:3: ...</failure>
//   </testcase>
//
// New findings below the failing severity are listed in the testcase's
// `system-out`; baselined and suppressed ones are not listed.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_REPORT_JUNIT_H
#define OPMIG_REPORT_JUNIT_H

#include "opmig/report/RuleCatalog.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::report {

/// `Text` as XML character data or attribute value: `&<>"` escaped, the
/// control characters XML 1.0 cannot hold dropped. For reports that lay out
/// their own testcases (validate's layers).
std::string xmlEscape(llvm::StringRef Text);

/// JUnit XML: a testsuite named `SuiteName` with one testcase per rule of
/// `Rules`, in its order.
std::string renderJUnit(const std::vector<Finding> &Findings, const RuleCatalog &Rules,
                        const std::string &SuiteName, Severity FailOn = Severity::Error);

} // namespace opmig::report

#endif
