//===- CppNames.h - Names that become C++ source text -----------*- C++ -*-===//
//
// A --domain becomes `namespace attn {`, a rename target `namespace a::b {`:
// a keyword there (`namespace class {`) or a reserved name breaks every
// migrated file, so both are checked for what they become.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_CPPNAMES_H
#define OPMIG_MIGRATE_LIB_CPPNAMES_H

#include "llvm/ADT/StringRef.h"

namespace opmig::migrate {

/// A C++20 keyword or alternative token (`class`, `and`, `co_await`, ...).
bool isCppKeyword(llvm::StringRef Name);

/// An identifier that may name a namespace: letters, digits and `_`, not
/// starting with a digit, not a keyword.
bool isNamespaceIdentifier(llvm::StringRef Name);

/// The first byte of `Text` that would break a one-line comment or a string
/// (a control character such as a newline); npos when there is none.
size_t firstControlCharacter(llvm::StringRef Text);

} // namespace opmig::migrate

#endif
