//===- LayerContext.h - What the layers of one validation share -*- C++ -*-===//
//
// Found once per run (the manifest, the toolchain, the archs, the Python that
// runs the harness) and handed to each layer in order; the build layer
// leaves what it built for the layers after it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_LAYERCONTEXT_H
#define OPMIG_VALIDATE_LIB_LAYERCONTEXT_H

#include "opmig/support/Manifest.h"
#include "opmig/support/Toolchain.h"
#include "opmig/validate/BuildPlan.h"
#include "opmig/validate/OpHarness.h"
#include "opmig/validate/UpstreamTestCases.h"
#include "opmig/validate/Validate.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opmig::validate {

/// What the build layer made, for the layers after it.
struct BuiltDomain {
  BuildPlan Plan;
  std::string BuildDir; ///< Absolute; the extension or library is in it.
  std::string Library;  ///< Absolute path of the shared library.
  /// The TUs the build compiled, root-relative.
  std::vector<std::string> CompiledTUs;
};

/// The upstream library of the diff and perf layers (UpstreamBuilder.h).
struct UpstreamBuilt;

struct LayerContext {
  LayerContext(const ValidateOptions &Options, std::string Root)
      : Options(Options), Root(std::move(Root)) {}

  const ValidateOptions &Options;
  std::string Root; ///< The target, absolute.
  Manifest M;
  std::string ManifestPath; ///< Root-relative.
  std::string Profile;
  ToolchainPaths Toolchain;
  std::string Nvcc; ///< Empty when there is none.
  std::vector<CudaArch> Archs;
  std::string ArchesFrom; ///< `the default`, `TORCH_CUDA_ARCH_LIST`, ...
  std::optional<BuiltDomain> Built;
  /// Why nothing was built when Built is empty (the build layer's reason).
  std::string NotBuiltBecause;
  /// How the harnesses run (HarnessSetup.h), set before the first layer
  /// after build; when empty, HarnessUnavailable says why.
  std::optional<HarnessEnvironment> Harness;
  std::string HarnessUnavailable;
  bool HaveGpu = false; ///< A CUDA device is here.
  /// Built by the first of diff and perf that runs (UpstreamBuilder.h).
  std::shared_ptr<UpstreamBuilt> Upstream;
  /// What the upstream tree's tests call each op with (UpstreamTestCases.h):
  /// read once, before the layers, when `--source` is given.
  std::optional<UpstreamTests> Tests;
  /// The report's notes, where the layers say where their cases came from.
  std::vector<std::string> *Notes = nullptr;

  /// Adds `Line` to the report's notes unless it is there already (every
  /// layer of an op chooses the same cases).
  void note(const std::string &Line) const {
    if (Notes && std::find(Notes->begin(), Notes->end(), Line) == Notes->end())
      Notes->push_back(Line);
  }

  /// Where builds (and the objects they share, under `objects/`) are kept.
  std::string buildCacheDir() const {
    return Options.CacheDir.empty() ? defaultBuildCacheDir() : Options.CacheDir;
  }

  void progress(const std::string &Line) const {
    if (Options.Progress)
      Options.Progress(Line);
  }
};

} // namespace opmig::validate

#endif
