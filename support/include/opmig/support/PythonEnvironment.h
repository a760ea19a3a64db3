//===- PythonEnvironment.h - The torch and Python an analysis parses against -*- C++ -*-===//
//
// Finds the torch that users have installed (a PyPI wheel) without importing
// it: `importlib.util.find_spec` locates the package even when `import torch`
// would fail (a wheel without its CUDA libraries, a machine without a GPU
// driver), and costs a fraction of an import. What the analysis needs then
// comes from the package folder: include dirs, the library dir (for the link
// check), the version, and the C++ standard its headers demand.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_PYTHONENVIRONMENT_H
#define OPMIG_SUPPORT_PYTHONENVIRONMENT_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig {

/// A torch installation, read from its package folder (or from include dirs
/// the user named).
struct TorchInstall {
  std::vector<std::string> IncludeDirs; ///< Empty when no torch was found.
  std::string LibDir;                   ///< `torch/lib`, empty when absent.
  std::string Version;                  ///< `__version__` of `torch/version.py`, or empty.
  /// The C++ standard its headers require (`#error C++20 or later ...`), 0
  /// when they state none.
  unsigned CxxStandard = 0;
};

struct PythonEnvironment {
  std::string Interpreter; ///< The `python3` that was asked; empty when none.
  std::string IncludeDir;  ///< `sysconfig`'s include dir (Python.h), or empty.
  TorchInstall Torch;
};

/// Asks `python3` on PATH, in one short run that does not import torch.
/// Failures mean "not found". `OPMIG_NO_TORCH=1` skips the torch part.
PythonEnvironment probePythonEnvironment();

/// Reads the installation rooted at `PackageDir` (the `torch/` folder).
TorchInstall torchFromPackage(llvm::StringRef PackageDir);

/// A torch given by its include dirs (`--torch-include`): the library dir
/// and standard are found next to them where they are.
TorchInstall torchFromIncludeDirs(const std::vector<std::string> &IncludeDirs);

/// The C++ standard (17, 20, ...) that the torch headers under `IncludeDirs`
/// demand, 0 when they say nothing.
unsigned cxxStandardDemandedBy(const std::vector<std::string> &IncludeDirs);

} // namespace opmig

#endif
