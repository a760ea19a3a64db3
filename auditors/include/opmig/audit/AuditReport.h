//===- AuditReport.h - An audit's result as text, JSON, SARIF, JUnit -*- C++ -*-===//
//
// The audit's documents around its findings; the findings themselves are
// rendered by `opmig_reporting`, as every producer's are. Text, one finding
// per line plus its fix hint, then a summary:
//
//   src/cache_dit/kernels/_attn.py:12: error: fake ... [cache-dit-fake-naming]
//     fix: rename the function to _fake_merge_attn_states
//   1 findings: 1 new, 0 baselined, 0 suppressed (12 rules, 40 files)
//
// JSON (`opmig.audit/1`), SARIF 2.1.0 with the rules that ran and the
// audit's own (suppression checks, unparsable files), and JUnit XML (one
// testcase per rule). All deterministic except the timing in JSON's `stats`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_AUDITREPORT_H
#define OPMIG_AUDIT_AUDITREPORT_H

#include "opmig/audit/Audit.h"
#include "opmig/report/RuleCatalog.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// What the reports say about a rule file's rule.
report::RuleInfo ruleInfo(const Rule &R);

/// The rules of the findings opmig makes itself, which no rule file has:
/// suppressions without a reason or matching nothing, unparsable files.
const std::vector<report::RuleInfo> &auditBuiltinRules();

/// The rules that ran, then the audit's own rules and any other id its
/// findings carry: the rows of its SARIF log and JUnit testcases.
report::RuleCatalog auditRuleCatalog(const AuditResult &Result);

/// New and baselined findings (suppressed ones are counted, not listed),
/// then a summary line `N findings: A new, B baselined, C suppressed`.
std::string renderText(const AuditResult &Result);

/// The `opmig.audit/1` document, pretty-printed, ending in a newline.
std::string renderJson(const AuditResult &Result);

/// A SARIF 2.1.0 log with one run; `ToolVersion` is opmig's version.
std::string renderSarif(const AuditResult &Result, const std::string &ToolVersion);

/// JUnit XML: a testsuite named `SuiteName` with one testcase per rule that
/// ran (and per rule id of a finding that names no loaded rule), failing
/// with its New findings at or above `FailOn`; its New findings below that
/// are listed in the testcase's system-out.
std::string renderJUnit(const AuditResult &Result, const std::string &SuiteName,
                        Severity FailOn = Severity::Error);

} // namespace opmig::audit

#endif
