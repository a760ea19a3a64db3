//===- GateValidation.h - The gate's `validate` check -----------*- C++ -*-===//
//
// The audit library runs the gate but must not depend on the validators
// (tests/lint/check_layering.py); the driver, which links both, hands it
// this callback. Each domain's JSON report is written under a folder the
// gate's run owns and removes, and read there by the domain's review.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_GATEVALIDATION_H
#define OPMIG_TOOLS_GATEVALIDATION_H

#include "opmig/audit/Gate.h"

#include <string>

namespace opmig {

/// Validates domains of the repository at `Root` (as the gate was given it)
/// as `opmig validate --target Root --domain D --layers L` would, writing
/// each report under `ReportsDir`.
audit::ValidateDomainFor gateValidation(const std::string &Root, const std::string &ReportsDir);

} // namespace opmig

#endif
