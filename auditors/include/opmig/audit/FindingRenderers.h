//===- FindingRenderers.h - Findings as text, JSON, SARIF, JUnit -*- C++ -*-===//
//
// Text, one finding per line plus its fix hint, the way editors and CI
// annotators parse it:
//
//   src/cache_dit/kernels/_attn.py:12: error cache-dit-fake-naming: fake ...
//     fix: rename the function to _fake_merge_attn_states
//
// JSON (`opmig.audit/1`), SARIF 2.1.0 for GitHub code scanning (rule
// metadata, `%SRCROOT%`-relative locations, `partialFingerprints`,
// `baselineState`, in-source suppressions; at most 25,000 results) and
// JUnit XML for the gate (one testcase per rule). All deterministic except
// the timing in JSON's `stats`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_FINDINGRENDERERS_H
#define OPMIG_AUDIT_FINDINGRENDERERS_H

#include "opmig/audit/Audit.h"

#include <string>

namespace opmig::audit {

/// GitHub code scanning accepts at most this many results per run.
inline constexpr size_t SarifMaxResults = 25000;

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
