//===- UpstreamBuilder.h - The upstream library, built and cached -*- C++ -*-===//
//
// Builds the plan of UpstreamBuild.h with nvcc into a folder of the build
// cache (`upstream-<profile>-<domain>-<key>/`), once per run: the diff and
// perf layers share it. What it reports are checks named
// `upstream-plan`, `upstream-registration` and `upstream-build`; the layers
// prefix them with their own name.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_UPSTREAMBUILDER_H
#define OPMIG_VALIDATE_LIB_UPSTREAMBUILDER_H

#include "LayerContext.h"
#include "opmig/validate/UpstreamBuild.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::validate {

struct UpstreamBuilt {
  std::optional<UpstreamPlan> Plan;
  std::string Library; ///< Absolute; empty unless it was built.
  /// The nvcc flags of a `.cu` compile of each build, as compared.
  std::vector<std::string> UpstreamNvcc, MigratedNvcc;
  std::vector<CheckResult> Checks;
};

/// The upstream build of this run (built on the first call).
const UpstreamBuilt &upstreamBuild(LayerContext &Ctx);

/// The nvcc flags the migrated build compiled its `.cu` files with: the
/// setup.py block's plus torch's (cache-dit), or the compile database's
/// (generic).
std::vector<std::string> migratedNvccFlags(const LayerContext &Ctx);

} // namespace opmig::validate

#endif
