//===- Validate.h - Build a migrated domain and prove it in layers -*- C++ -*-===//
//
// The library behind `opmig validate`: finds the domain's manifest in the
// target, builds its kernels the way the profile's target builds them, and
// runs the validation layers (Layers.h) over what it built:
//
//   ValidateOptions Options;
//   Options.Target = "path/to/cache-dit";
//   Options.Domain = "attn";
//   Options.Layers = {"build", "import"};
//   llvm::Expected<ValidationReport> Report = validateDomain(Options);
//
// Bad input (no such target, no manifest of the domain, an arch that is no
// CUDA arch) is an InputError; what the layers find is data in the report.
// Nothing here prints: progress goes to `Options.Progress`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_VALIDATE_H
#define OPMIG_VALIDATE_VALIDATE_H

#include "opmig/support/Errors.h"
#include "opmig/validate/ValidationReport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace opmig::validate {

/// Where a build's CUDA arch list comes from, besides the options: the
/// values of the environment variables the profiles read (empty when unset).
struct ArchEnvironment {
  std::string CacheDitArchList; ///< CACHE_DIT_CUDA_ARCH_LIST
  std::string TorchArchList;    ///< TORCH_CUDA_ARCH_LIST
};

struct ValidateOptions {
  std::string Target;
  std::string Domain;
  std::string Profile; ///< Empty: the manifest's.
  /// The layers asked for by name (parseLayerList); empty: all of them.
  /// A layer asked for by name that cannot run fails instead of skipping.
  std::vector<std::string> Layers;
  std::string ArchList; ///< `9.0a;8.9`; empty: from ArchEnv, else DefaultArch.
  ArchEnvironment ArchEnv;
  bool Build = true;             ///< False: reuse an up-to-date build, never start one.
  bool RequireGpu = false;       ///< A layer skipped for want of a GPU fails instead.
  unsigned TimeoutSeconds = 120; ///< Per child process of a layer's case.
  unsigned Jobs = 0;             ///< Parallel compile jobs; 0: one per core.
  std::string CacheDir;          ///< Builds go under it; empty: defaultBuildCacheDir().
  std::string CudaPath;          ///< Empty: $CUDA_HOME, else /usr/local/cuda.
  /// The validation spec; empty: opmig-validation-spec.json beside the manifest.
  std::string SpecFile;
  /// The upstream tree the domain was migrated from (`--source`); the diff
  /// and perf layers compare with it, and run only when it is given.
  std::string Source;
  /// Code-generation flags of the upstream build that its build files do
  /// not spell out (`--upstream-flags`, split on spaces).
  std::vector<std::string> UpstreamFlags;
  std::function<void(llvm::StringRef Line)> Progress; ///< May be empty.
};

/// The arch built when neither the options nor the environment name one:
/// the H200's, one arch to keep CI builds short.
inline constexpr const char *DefaultArch = "9.0a";

/// `$XDG_CACHE_HOME/opmig/validate`, else `$HOME/.cache/opmig/validate`.
std::string defaultBuildCacheDir();

/// The options of ValidateOptions that validate's messages name (see
/// InputName in Errors.h).
namespace inputs {
inline constexpr InputName Source{"validate.Source"};
inline constexpr InputName Layers{"validate.Layers"};
} // namespace inputs

/// Runs the layers. InputError for a target or domain that cannot be
/// validated; the layers' findings are in the report.
llvm::Expected<ValidationReport> validateDomain(const ValidateOptions &Options);

} // namespace opmig::validate

#endif
