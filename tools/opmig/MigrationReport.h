//===- MigrationReport.h - A migration as JSON or text ----------*- C++ -*-===//

#ifndef OPMIG_TOOLS_MIGRATIONREPORT_H
#define OPMIG_TOOLS_MIGRATIONREPORT_H

#include "nlohmann/json.hpp"
#include "opmig/migrate/CompileCheck.h"
#include "opmig/migrate/Migrator.h"

#include <string>

namespace opmig {

/// Version of the JSON document `opmig migrate --format json` prints
/// (docs/migrate-json-schema.md).
inline constexpr const char *MigrateSchemaVersion = "opmig.migrate/2";

/// What happened to the migration: written, left unwritten (dry run),
/// blocked (by issues or conflicts) or up to date.
enum class MigrationOutcome { Written, DryRun, Blocked, UpToDate };

nlohmann::json renderMigrationJson(const migrate::MigrationResult &R,
                                   const migrate::CompileCheckReport &Check,
                                   MigrationOutcome Outcome, bool Forced);

/// A summary for people: one line per change, the ops and their fakes, the
/// issues and conflicts, and what was done.
std::string renderMigrationText(const migrate::MigrationResult &R,
                                const migrate::CompileCheckReport &Check, MigrationOutcome Outcome,
                                bool Forced, bool Verbose);

} // namespace opmig

#endif
