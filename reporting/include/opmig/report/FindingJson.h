//===- FindingJson.h - A finding as a JSON object ---------------*- C++ -*-===//
//
// One finding of a JSON report (`opmig.audit/1`'s `findings`):
//
//   {"rule": "demo-abs-path", "severity": "error", "file": "docs/a.md",
//    "line": 3, "column": 5, "message": "...", "fix": "...",
//    "fingerprint": "0123456789abcdef", "state": "suppressed",
//    "reason": "quoted log"}
//
// `reason` only for a suppressed finding. The key `rule` holds the id: the
// audit's documents named it so before findings had other producers.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_REPORT_FINDINGJSON_H
#define OPMIG_REPORT_FINDINGJSON_H

#include "nlohmann/json.hpp"
#include "opmig/support/Finding.h"

namespace opmig::report {

nlohmann::ordered_json findingJson(const Finding &F);

} // namespace opmig::report

#endif
