//===- CompileFlags.h - Clang command lines for upstream TUs ----*- C++ -*-===//
//
// Upstream trees are built by nvcc, whose flags Clang does not accept. This
// file turns a compile database entry (often an nvcc command) into a Clang
// command line, and infers one when no database is given.
//
//   nvcc -gencode arch=compute_90a,code=sm_90a --expt-relaxed-constexpr
//        -Xcompiler=-fPIC,-Wall -I csrc -x cu -c csrc/a.cu -o a.o
//   =>  -I<dir>/csrc --cuda-gpu-arch=sm_90a -fPIC -Wall -x cuda
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_COMPILEFLAGS_H
#define OPMIG_ANALYZE_COMPILEFLAGS_H

#include "opmig/analyze/UpstreamBuildFlags.h"
#include "opmig/support/Toolchain.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::analyze {

/// Flags for one TU, without the compiler, the input file, `-c`, `-o` or any
/// side selection (`--cuda-host-only` etc.): the parser adds those per pass.
struct TUFlags {
  std::vector<std::string> Args;
  /// GPU architectures named by the command (`sm_90a`, ...), in order.
  std::vector<std::string> GpuArchs;
  std::string Directory; ///< Working directory the flags are relative to.
  /// nvcc-only flags a migrated build carries (carriedNvccFlag():
  /// `--expt-relaxed-constexpr`, `--use_fast_math`, `--ftz=true`), for asking
  /// nvcc about the TU and for the migrated build; Clang never sees them.
  std::vector<std::string> NvccFlags;
};

/// Translates one compile command (argv form, argv[0] being the compiler) to
/// Clang flags. nvcc-only flags are translated where Clang has an equivalent
/// (`-gencode`/`-arch` -> arch list, `-rdc=true` -> `-fgpu-rdc`,
/// `--use_fast_math` -> `-ffast-math`, `-Xcompiler a,b` -> `a b`, `-x cu` ->
/// `-x cuda`) and dropped otherwise (`--expt-*`, `-Xptxas`, `--threads`, ...).
/// Relative `-I`/`-isystem`/`-include` paths are made absolute against
/// `Directory`. Commands from g++/clang++ pass through minus the input, `-c`,
/// `-o` and dependency-file flags.
TUFlags normalizeCompileCommand(const std::vector<std::string> &Argv, const std::string &Directory);

/// A compile database loaded from `<BuildDir>/compile_commands.json`, keyed by
/// absolute, normalized source path.
struct CompileDatabase {
  std::map<std::string, TUFlags> ByFile;
};

/// Loads and normalizes a compile database. Fails with an InputError naming
/// the file when it is missing, malformed, or has no entries.
llvm::Expected<CompileDatabase> loadCompileDatabase(const std::string &BuildDir);

/// Flags inferred for a tree without a compile database (or for a TU the
/// database does not list): `-std=c++N` (the newest of C++17, what the torch
/// headers demand and what the upstream build declares), the upstream
/// build's defines, `-I` for the tree root, the upstream build's include dirs
/// and each `src/`, `csrc/` and `include/` directory (at any depth), then
/// torch's and Python's include dirs. CUDA and CCCL come from commonClangFlags.
TUFlags inferFlags(const std::string &SourceRoot, const ToolchainPaths &Toolchain,
                   const UpstreamBuildFlags &Upstream = {});

/// Flags every parse gets whatever their origin: the resource dir, the CUDA
/// path and CCCL include dir, and warnings off (only errors are reported).
std::vector<std::string> commonClangFlags(const ToolchainPaths &Toolchain);

} // namespace opmig::analyze

#endif
