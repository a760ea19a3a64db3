//===- SourceFiles.h - Which files are C++/CUDA sources ----------*- C++ -*-===//
//
// By extension only: the analysis walks trees with it, the rewriter and the
// compile checks pick translation units with it, and the audit scopes its
// C++ checks with it, so all of them agree on what a source file is.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_SOURCEFILES_H
#define OPMIG_SUPPORT_SOURCEFILES_H

#include "llvm/ADT/StringRef.h"

namespace opmig {

/// Whether `Path` names a source file opmig analyses (a TU or a header).
bool isSourceFileName(llvm::StringRef Path);

/// A translation unit (`.cu`, `.cpp`, `.cc`, `.cxx`) rather than a header.
bool isTranslationUnitName(llvm::StringRef Path);

/// A CUDA file (`.cu`, `.cuh`: parsed on both sides) rather than host C++.
bool isCudaSource(llvm::StringRef Path);

} // namespace opmig

#endif
