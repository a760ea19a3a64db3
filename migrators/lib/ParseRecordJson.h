//===- ParseRecordJson.h - A rewrite parse's record as JSON -----*- C++ -*-===//
//
// The cached form of a ParseRecord (RewriteCache.h): every field, so that a
// record read back merges exactly as the parse's own would.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_PARSERECORDJSON_H
#define OPMIG_MIGRATE_LIB_PARSERECORDJSON_H

#include "ParseRecord.h"
#include "nlohmann/json.hpp"

namespace opmig::migrate {

nlohmann::json parseRecordJson(const ParseRecord &Record);
/// Throws nlohmann::json::exception on a malformed record.
ParseRecord parseRecordFromJson(const nlohmann::json &J);

} // namespace opmig::migrate

#endif
