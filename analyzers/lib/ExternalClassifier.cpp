#include "opmig/analyze/ExternalClassifier.h"

#include "TreeLocations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace opmig::analyze {

ExternalClassifier::ExternalClassifier(const ToolchainPaths &Toolchain,
                                       std::vector<std::string> SubmoduleDirs)
    : CudaRoot(Toolchain.CudaPath.empty() ? "" : realPathOf(Toolchain.CudaPath)),
      SubmoduleDirs(std::move(SubmoduleDirs)) {}

bool ExternalClassifier::inSubmodule(const IncludeFact &Include) const {
  llvm::StringRef FirstComponent = llvm::StringRef(Include.Spelling).split('/').first;
  return llvm::any_of(SubmoduleDirs, [&](const std::string &Dir) {
    return (!Include.Resolved.empty() && isWithin(Include.Resolved, Dir)) ||
           (Include.Resolved.empty() && llvm::sys::path::filename(Dir) == FirstComponent);
  });
}

ExternalClass ExternalClassifier::classify(const IncludeFact &Include) const {
  if (inSubmodule(Include))
    return ExternalClass::ThirdParty;
  if (Include.Resolved.empty())
    return ExternalClass::Missing;
  llvm::StringRef FirstComponent = llvm::StringRef(Include.Spelling).split('/').first;
  if (llvm::StringRef(Include.Spelling).contains('/')) {
    auto ByPrefix = llvm::StringSwitch<std::optional<ExternalClass>>(FirstComponent)
                        .Cases({"torch", "ATen", "c10", "caffe2"}, ExternalClass::Torch)
                        .Case("pybind11", ExternalClass::Pybind11)
                        .Cases({"cub", "thrust", "cuda", "nv"}, ExternalClass::Cccl)
                        .Default(std::nullopt);
    if (ByPrefix)
      return *ByPrefix;
  }
  if (!CudaRoot.empty() && isWithin(Include.Resolved, CudaRoot))
    return llvm::StringRef(Include.Resolved).contains("/cccl/") ? ExternalClass::Cccl
                                                                : ExternalClass::Cuda;
  return ExternalClass::System;
}

} // namespace opmig::analyze
