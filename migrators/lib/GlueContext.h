//===- GlueContext.h - What profile templates are rendered with -*- C++ -*-===//
//
// Builds the JSON context documented in docs/profiles.md from the plan, the
// derived op signatures and the upstream provenance. Templates may use
// exactly these keys; an unknown one is a template error.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_GLUECONTEXT_H
#define OPMIG_MIGRATE_GLUECONTEXT_H

#include "nlohmann/json.hpp"
#include "opmig/migrate/MigrationPlan.h"
#include "opmig/migrate/OpSignature.h"
#include "opmig/support/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

/// The keys that only depend on the plan: enough to expand path templates.
nlohmann::json baseContext(const MigrationPlan &Plan, const Profile &P);

/// The full context. `GeneratedPaths` are the target paths of the
/// profile's generated files, so that build glue can list them.
nlohmann::json glueContext(const MigrationPlan &Plan, const Profile &P,
                           const std::vector<OpSignature> &Ops, const UpstreamInfo &Upstream,
                           const std::vector<std::string> &GeneratedPaths,
                           const std::string &ToolVersion);

/// Whether `Path` names a translation unit (as opposed to a header).
bool isTranslationUnitPath(const std::string &Path);

} // namespace opmig::migrate

#endif
