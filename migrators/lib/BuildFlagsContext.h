//===- BuildFlagsContext.h - The upstream build, for build glue -*- C++ -*-===//
//
// What a generated build block (setup.py, CMake) must pass so that the
// migrated code builds as the upstream's did: its C++ standard, its defines,
// its nvcc flags (language, math, registers), and the third-party headers
// (submodules) it includes, moved under the profile's third-party folder.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_BUILDFLAGSCONTEXT_H
#define OPMIG_MIGRATE_LIB_BUILDFLAGSCONTEXT_H

#include "nlohmann/json.hpp"
#include "opmig/analyze/AnalysisResult.h"
#include "opmig/migrate/MigrationPlan.h"
#include "opmig/support/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

/// The standard the glue compiles with: the newest `-std=c++N` among the
/// closure TUs' flags (what the analysis parsed with: the upstream's, or what
/// its torch demands), and at least 20, what current torch's headers demand.
unsigned closureCxxStandard(const std::map<std::string, std::vector<std::string>> &TUFlags);

/// The upstream's submodules the closure includes headers of, placed under
/// the plan's third-party folder (`Present` is left false).
std::vector<ThirdPartyDependency> thirdPartyDependencies(const analyze::AnalysisResult &Analysis,
                                                         const MigrationPlan &Plan);

/// `cxx_standard`, `defines`, `nvcc_flags`, `third_party` and its flat
/// `third_party_include_dirs` (also `..._in_native_dir`, for those under
/// the native dir) and `third_party_headers` (docs/profiles.md).
nlohmann::json buildFlagsContext(const analyze::AnalysisResult &Analysis, const MigrationPlan &Plan,
                                 const std::vector<ThirdPartyDependency> &ThirdParty);

/// The same flags as the manifest records them for `opmig review`: the
/// standard, defines and nvcc flags, the include root and the third-party
/// include dirs (target-relative), and the device side the analysis parsed.
BuildRecord buildRecord(const analyze::AnalysisResult &Analysis, const MigrationPlan &Plan,
                        const std::vector<ThirdPartyDependency> &ThirdParty);

} // namespace opmig::migrate

#endif
