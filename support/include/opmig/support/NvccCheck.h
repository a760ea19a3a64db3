//===- NvccCheck.h - Ask nvcc whether a TU compiles -------------*- C++ -*-===//
//
// Clang and nvcc do not accept the same CUDA: nvcc's front end lets a
// missing `template` keyword through, and the toolkit's headers declare
// some overloads (`__stcg` on vector types) only for nvcc. Upstreams build
// with nvcc, so where Clang rejects a TU, nvcc is asked: a front-end pass
// over host and device code (`-cuda`, PTX for one arch, `-Xcicc -O0`),
// about a tenth of a real compile; for a C++ TU, the host compiler nvcc
// drives, syntax only. `--verify` asks for objects instead: a full compile
// (SASS for the arch) of the closure, or host objects only (PTX at -O0) of
// the TUs searched for a missing symbol.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_NVCCCHECK_H
#define OPMIG_SUPPORT_NVCCCHECK_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig {

struct CompilerError {
  std::string File; ///< As the compiler printed it.
  unsigned Line = 0;
  std::string Message;
};

/// How far nvcc goes.
enum class NvccStage {
  FrontEnd,   ///< Parse and check, no output.
  HostObject, ///< A position-independent host object; device code only to PTX, at -O0.
  Object,     ///< A position-independent object with SASS for the arch.
};

struct NvccCheckRequest {
  std::string Nvcc;     ///< Path of the nvcc to run.
  std::string MainFile; ///< Absolute path; so are the paths in `Flags`.
  /// The TU's flags in Clang spelling (see CompileFlags.h): only the
  /// language-neutral ones reach nvcc (`-D`, `-U`, `-I`, `-isystem`,
  /// `-include`, `-std=`).
  std::vector<std::string> Flags;
  /// nvcc-only language flags of the upstream build (`--expt-relaxed-constexpr`).
  std::vector<std::string> NvccFlags;
  std::string GpuArch = "sm_90";
  NvccStage Stage = NvccStage::FrontEnd;
  std::string ObjectFile; ///< Where HostObject and Object write.
};

struct NvccVerdict {
  bool Ran = false;      ///< False when nvcc could not be started.
  bool Accepted = false; ///< nvcc exited 0.
  std::vector<CompilerError> Errors;
  std::string Problem; ///< Why it did not run, or nvcc's exit status without errors.
};

/// `<CudaPath>/bin/nvcc` when it exists, else nvcc on PATH, else empty.
std::string findNvcc(const std::string &CudaPath);

/// The command `checkWithNvcc` runs (argv[0] is `Request.Nvcc`).
std::vector<std::string> nvccCheckCommand(const NvccCheckRequest &Request);

/// Runs the check; at most 20 errors are kept.
NvccVerdict checkWithNvcc(const NvccCheckRequest &Request);

/// The verdict on `Command`, a check's command with more flags (`-MD -MF`).
NvccVerdict runNvccCommand(const std::vector<std::string> &Command);

/// The errors in a compiler's output: nvcc's `file(line): error: ...` and
/// the host compiler's `file:line:col: error: ...`.
std::vector<CompilerError> parseCompilerErrors(llvm::StringRef Output);

} // namespace opmig

#endif
