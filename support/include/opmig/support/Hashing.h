//===- Hashing.h - Content hashes that leave the process ---------*- C++ -*-===//
//
// The manifest records sha256 digests (they are compared across machines and
// opmig versions, and a reviewer can recompute them with `sha256sum`); fast
// in-process hashes use LLVM's xxh3 directly.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_HASHING_H
#define OPMIG_SUPPORT_HASHING_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace opmig {

/// Lower-case hex sha256 of `Data`.
std::string sha256Hex(llvm::StringRef Data);

} // namespace opmig

#endif
