//===- GateReport.h - What `opmig gate` prints and writes -------*- C++ -*-===//
//
// The gate's findings (the audit's, the reviews', the rule tests') are
// rendered by `opmig_reporting` like every producer's; this adds the
// summary and the rule rows of all three: the audit's rules, every review
// kind when a review ran, and `opmig-rule-test`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_GATEREPORT_H
#define OPMIG_AUDIT_GATEREPORT_H

#include "opmig/audit/Gate.h"

#include <string>

namespace opmig::audit {

/// The summary `opmig gate` prints: findings per rule (new, baselined,
/// suppressed), the rule tests, and a last line `gate: passed` or
/// `gate: failed (N new at or above <severity>)`.
std::string renderGateSummary(const GateResult &Result, Severity FailOn);

/// A SARIF 2.1.0 log of every finding of the gate; the run's properties
/// name the profile.
std::string renderGateSarif(const GateResult &Result, const std::string &ToolVersion);

/// JUnit XML: a testsuite `opmig-gate` with a testcase per rule, failing
/// with its new findings at or above `FailOn`.
std::string renderGateJUnit(const GateResult &Result, Severity FailOn);

} // namespace opmig::audit

#endif
