//===- Toolchain.cpp - Where CUDA, torch and Python are -------------------===//

#include "opmig/support/Toolchain.h"

#include "opmig/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <iterator>

namespace opmig {

namespace {

/// The toolkit `Option` names, else $CUDA_HOME's, else /usr/local/cuda;
/// empty unless it has `include/cuda_runtime.h`.
std::string findCudaPath(const std::string &Option) {
  std::string Candidate = Option;
  if (Candidate.empty())
    Candidate = llvm::sys::Process::GetEnv("CUDA_HOME").value_or("");
  if (Candidate.empty())
    Candidate = "/usr/local/cuda";
  std::string Path = absoluteFromCwd(Candidate);
  llvm::SmallString<256> Header(Path);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  return llvm::sys::fs::exists(Header) ? Path : "";
}

} // namespace

ToolchainPaths findToolchain(const std::string &CudaPathOption,
                             const std::vector<std::string> &TorchIncludeOption) {
  ToolchainPaths Paths;
  Paths.CudaPath = findCudaPath(CudaPathOption);
  Paths.ResourceDir = OPMIG_CLANG_RESOURCE_DIR;
  PythonEnvironment Python = probePythonEnvironment();
  Paths.PythonIncludeDir = Python.IncludeDir;
  Paths.Python = Python.Interpreter;
  if (TorchIncludeOption.empty()) {
    Paths.Torch = std::move(Python.Torch);
  } else {
    std::vector<std::string> Dirs;
    llvm::transform(TorchIncludeOption, std::back_inserter(Dirs),
                    [](const std::string &Dir) { return absoluteFromCwd(Dir); });
    Paths.Torch = torchFromIncludeDirs(Dirs);
  }
  return Paths;
}

} // namespace opmig
