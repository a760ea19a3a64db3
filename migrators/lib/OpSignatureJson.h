//===- OpSignatureJson.h - An op signature as JSON, for the cache -*- C++ -*-===//
//
// The cached form of the signatures one parse derives (OpSignature.h):
// every field; the starting validation spec in the spec file's own format
// (support/ValidationSpec.h), which a re-run of migrate reads back anyway.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_OPSIGNATUREJSON_H
#define OPMIG_MIGRATE_LIB_OPSIGNATUREJSON_H

#include "nlohmann/json.hpp"
#include "opmig/migrate/OpSignature.h"

#include <optional>

namespace opmig::migrate {

nlohmann::json opSignatureJson(const OpSignature &Sig);
/// Nothing when `J` is not a signature this build wrote.
std::optional<OpSignature> opSignatureFromJson(const nlohmann::json &J);

} // namespace opmig::migrate

#endif
