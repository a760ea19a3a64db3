//===- Toolchain.h - Where CUDA, torch and Python are ------------*- C++ -*-===//
//
// Found once per command from its options and the environment, and shared by
// whatever compiles: the analysis' Clang parses, the rewriter's, the nvcc
// compile checks and a review's build.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_TOOLCHAIN_H
#define OPMIG_SUPPORT_TOOLCHAIN_H

#include "opmig/support/PythonEnvironment.h"

#include <string>
#include <vector>

namespace opmig {

/// Where the toolchain lives, as found from options and the environment.
struct ToolchainPaths {
  std::string CudaPath;    ///< `--cuda-path`, else $CUDA_HOME, else /usr/local/cuda; empty if none.
  std::string ResourceDir; ///< Clang's resource dir (for cuda_wrappers).
  TorchInstall Torch;      ///< No include dirs when torch is not installed.
  std::string PythonIncludeDir; ///< Python.h's dir (pybind11 needs it), or empty.
  std::string Python;           ///< The `python3` asked, or empty when there is none.
};

/// Finds the toolchain; `CudaPathOption` is the `--cuda-path` value (may be
/// empty). Torch comes from `TorchIncludeOption` when non-empty, else from
/// the torch package `python3` would import (found without importing it).
ToolchainPaths findToolchain(const std::string &CudaPathOption,
                             const std::vector<std::string> &TorchIncludeOption);

} // namespace opmig

#endif
