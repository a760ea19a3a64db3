//===- TreeCompile.h - Compile TUs as they are on disk ----------*- C++ -*-===//
//
// Runs nvcc's front end (opmig::checkWithNvcc) over translation units that
// are already on disk, in parallel; objects asked for may come from an
// ObjectCache, when every input of an earlier compile is unchanged. CompileCheck uses it on its
// scratch copy of what a migration would write; `opmig review` on a migrated domain as its target
// holds it now, with the flags the manifest records:
//
//   TreeCompileRequest Request;
//   Request.Nvcc = opmig::findNvcc("");
//   Request.Root = "/src/cache-dit";
//   Request.TUs = {"csrc/kernels/attn/attn.cpp", "csrc/kernels/attn/a.cu"};
//   Request.Flags = {"-std=c++20", "-I/src/cache-dit/csrc/kernels"};
//   std::vector<CompiledTU> Results = compileTree(Request);
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_TREECOMPILE_H
#define OPMIG_SUPPORT_TREECOMPILE_H

#include "opmig/support/NvccCheck.h"

#include <string>
#include <vector>

namespace opmig {

/// Runs every request, `Jobs` at a time (0: one per core); the verdicts come
/// back in request order.
std::vector<opmig::NvccVerdict>
checkAllWithNvcc(const std::vector<opmig::NvccCheckRequest> &Requests, unsigned Jobs);

struct TreeCompileRequest {
  std::string Nvcc;             ///< The nvcc to run; see opmig::findNvcc.
  std::string Root;             ///< Absolute; the TUs are relative to it.
  std::vector<std::string> TUs; ///< Root-relative paths.
  /// Every TU's flags, in Clang spelling with absolute paths (only the
  /// language-neutral ones reach nvcc: see opmig::NvccCheckRequest).
  std::vector<std::string> Flags;
  std::vector<std::string> NvccFlags; ///< nvcc's language flags.
  std::string GpuArch = "sm_90";      ///< Its PTX is generated, not assembled.
  unsigned Jobs = 0;                  ///< 0: one per core.
  /// FrontEnd checks; HostObject also writes each TU's object, for a link.
  opmig::NvccStage Stage = opmig::NvccStage::FrontEnd;
  std::string ObjectDir; ///< Absolute; where HostObject and Object write.
  /// Where objects are kept for later compiles of the same TUs
  /// (ObjectCache.h); empty: none kept, none reused.
  std::string ObjectCacheDir;
};

struct CompiledTU {
  std::string Path; ///< As requested.
  bool Compiles = false;
  /// At most 20, file paths Root-relative where they are below it. A TU
  /// that fails without a parsable error (nvcc could not start, a crash)
  /// gets one error naming the TU with the reason.
  std::vector<opmig::CompilerError> Errors;
  std::string Object; ///< Absolute; empty unless an object was asked for and written.
  /// The object is one an earlier compile left in the object cache, all of
  /// its inputs unchanged.
  bool Reused = false;
};

/// A verdict on the TU at `Path` as a CompiledTU, error paths made relative
/// to `Root` (where the TU was compiled).
CompiledTU toCompiledTU(std::string Path, opmig::NvccVerdict Verdict, llvm::StringRef Root);

/// Compiles each of `Request.TUs`; in request order.
std::vector<CompiledTU> compileTree(const TreeCompileRequest &Request);

/// `Path` relative to `Root` when it is below it, else unchanged.
std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root);

} // namespace opmig

#endif
