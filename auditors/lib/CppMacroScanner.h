//===- CppMacroScanner.h - Macro invocations found by the raw lexer -*- C++ -*-===//
//
// The macro checks of `cpp` rules look at invocations as written, before any
// preprocessing: a header that is missing on the auditing machine (torch,
// pybind11) must not hide a `PYBIND11_MODULE(...)`. Clang's raw lexer skips
// comments and string literals and joins continued lines, so
//
//   // PYBIND11_MODULE(old, m) was here
//   PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { ... }
//
// yields one invocation, at line 2, with arguments `TORCH_EXTENSION_NAME`
// and `m`, also when a backslash-newline splits the argument list.
// Preprocessor directives (a `#define` of the macro itself) are skipped;
// code under `#if 0` is not, since nothing is evaluated.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CPPMACROSCANNER_H
#define OPMIG_AUDIT_CPPMACROSCANNER_H

#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace opmig::audit {

struct MacroInvocation {
  std::string Macro;
  unsigned Line = 0;   ///< 1-based, of the macro name.
  unsigned Column = 0; ///< 1-based, in bytes.
  /// The arguments split at top-level commas, each as its tokens' spelling
  /// joined by single spaces where the source had white space.
  std::vector<std::string> Arguments;
};

/// Every invocation (the name followed by `(`) of a macro in `Names` in
/// `Text`, in source order. `Text` is a whole file; an invocation whose
/// argument list never closes ends at the end of the file.
std::vector<MacroInvocation> scanMacroInvocations(const std::string &Text,
                                                  const llvm::StringSet<> &Names);

} // namespace opmig::audit

#endif
