//===- ClosureVerifier.h - Prove a closure complete by building it -*- C++ -*-===//
//
// Copies the closure files alone into a scratch directory, as `migrate`
// ports them (sibling definitions and the includes only they use left out),
// compiles every copied TU there with the flags it was analysed with (with
// nvcc, as the upstream builds it: one object per TU, SASS for the analysed
// arch; or with Clang: host objects, and a device compile for CUDA TUs),
// links the objects into one shared library, and reports tree symbols left
// undefined (torch, CUDA and system symbols are expected to stay undefined)
// and entries it does not define. With `Minimal`, it drops each file in turn and reports the ones
// whose absence changed nothing.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_CLOSUREVERIFIER_H
#define OPMIG_ANALYZE_CLOSUREVERIFIER_H

#include "opmig/analyze/AnalysisResult.h"

#include "llvm/Support/Error.h"

namespace opmig::analyze {

struct VerifyOptions {
  bool Minimal = false;
  bool KeepScratch = false;
  unsigned Jobs = 0;        ///< Parallel compiles; 0 means one per core.
  std::string Nvcc;         ///< The nvcc to build with; empty: Clang builds.
  std::string ClangBecause; ///< Why Clang builds, for the report.
  /// Where objects are kept for the next build with the same inputs (a
  /// folder of the analysis cache); empty keeps none.
  std::string ObjectCacheDir;
};

/// Builds the closure of `Result` alone and says whether it compiles and
/// links (the driver stores it in `AnalysisResult::Verify` for the report).
/// Fails only when the scratch copy cannot be made; compile and link
/// failures (a compiler that cannot be started included) are the report's.
llvm::Expected<VerifyReport> verifyClosure(const AnalysisResult &Result,
                                           const VerifyOptions &Options);

} // namespace opmig::analyze

#endif
