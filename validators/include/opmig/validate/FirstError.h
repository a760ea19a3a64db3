//===- FirstError.h - A failed build in one line ----------------*- C++ -*-===//
//
// A failing nvcc or CMake build prints thousands of lines; the report gives
// the file that failed and the compiler's first error:
//
//   FAILED: CMakeFiles/opmig_axpy.dir/axpy/axpy_op.cu.o
//   /usr/local/cuda/bin/nvcc ... -c /t/kernels/axpy/axpy_op.cu -o ...
//   /t/kernels/axpy/axpy_op.cu(12): error: identifier "oops" is undefined
//
//   -> {TU "kernels/axpy/axpy_op.cu", first error at kernels/axpy/axpy_op.cu:12}
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_FIRSTERROR_H
#define OPMIG_VALIDATE_FIRSTERROR_H

#include "opmig/support/NvccCheck.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig::validate {

struct BuildFailure {
  /// The TU whose compile failed (Ninja's `FAILED:` step), root-relative
  /// where it is below the root; empty when the log names none.
  std::string File;
  /// The first error of the compiler (its file root-relative), or, when no
  /// line has a compiler's form, the first line that says `error`.
  std::optional<CompilerError> First;
  std::string FirstLine; ///< Used when First is empty.

  /// `kernels/a/a.h:12: error: ...`, or what is known of the first error.
  std::string firstError() const;
  /// `kernels/a/a.cu: ` (the failing TU, when known) and firstError().
  std::string summary() const;
};

/// Reads a build log; `Root` is where the sources are.
BuildFailure firstBuildError(llvm::StringRef Log, llvm::StringRef Root);

} // namespace opmig::validate

#endif
