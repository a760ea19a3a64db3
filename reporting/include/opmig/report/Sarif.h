//===- Sarif.h - Findings as a SARIF 2.1.0 log ------------------*- C++ -*-===//
//
// For GitHub code scanning and other SARIF viewers: one run with the rule
// metadata of a RuleCatalog, `%SRCROOT%`-relative locations,
// `partialFingerprints` (`opmig/v1`), `baselineState` and in-source
// suppressions; at most SarifMaxResults results, new findings kept first.
// Deterministic: the same findings give the same bytes.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_REPORT_SARIF_H
#define OPMIG_REPORT_SARIF_H

#include "nlohmann/json.hpp"
#include "opmig/report/RuleCatalog.h"
#include "opmig/support/Finding.h"

#include <string>
#include <vector>

namespace opmig::report {

/// GitHub code scanning accepts at most this many results per run.
inline constexpr size_t SarifMaxResults = 25000;

/// A SARIF 2.1.0 log with one run of opmig `ToolVersion`, its results
/// sorted by file, line, column and id. The run's `properties` are
/// `RunProperties` (an object: the audit's profile, the review's domain)
/// followed by `totalResults` and `truncated`.
std::string renderSarif(const std::vector<Finding> &Findings, const RuleCatalog &Rules,
                        const std::string &ToolVersion,
                        nlohmann::ordered_json RunProperties = nlohmann::ordered_json::object());

} // namespace opmig::report

#endif
