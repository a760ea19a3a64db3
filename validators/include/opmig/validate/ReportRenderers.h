//===- ReportRenderers.h - A validation report as text, JSON, JUnit -*- C++ -*-===//
//
// Text, for a terminal: one line per layer and per check, then the findings
// (`file: error: message [check]`) and the verdict:
//
//   layer   status  reason
//   build   pass    2 checks passed
//     build-compile  pass  3 sources compile for 9.0a
//   ...
//   validate: PASS (2 layers passed, 5 skipped)
//
// JSON: `opmig.validate/1` (docs/user-guide.md). JUnit XML: a testsuite per
// layer, a testcase per check (a layer that ran none is one testcase),
// failures with their findings and skips with their reasons.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_REPORTRENDERERS_H
#define OPMIG_VALIDATE_REPORTRENDERERS_H

#include "opmig/validate/ValidationReport.h"

#include <string>

namespace opmig::validate {

inline constexpr const char *ValidateSchemaVersion = "opmig.validate/1";

std::string renderValidationText(const ValidationReport &Report);
std::string renderValidationJson(const ValidationReport &Report);
std::string renderValidationJUnit(const ValidationReport &Report);

} // namespace opmig::validate

#endif
