//===- SetupBlock.h - What a cache-dit setup.py block declares --*- C++ -*-===//
//
// The domain's `setup-extension` block of setup.py, read with CPython's own
// `ast` by the embedded python/setup_block.py (never with regexes): the
// `CUDAExtension(...)` its `_get_<domain>_extension()` builds.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_SETUPBLOCK_H
#define OPMIG_VALIDATE_LIB_SETUPBLOCK_H

#include "opmig/validate/BuildPlan.h"

#include "llvm/Support/Error.h"

#include <string>

namespace opmig::validate {

/// Reads `<Root>/setup.py`'s block of `Domain` with `Python`. InputError
/// when the file or the block is missing or the block declares its
/// extension in a form the reader does not follow.
llvm::Expected<ExtensionDeclaration>
readSetupBlock(const std::string &Python, const std::string &Root, const std::string &Domain);

/// The declaration in the helper's JSON answer; InputError naming `Origin`
/// for an `error` answer.
llvm::Expected<ExtensionDeclaration> parseSetupBlockAnswer(llvm::StringRef Answer,
                                                           llvm::StringRef Origin);

} // namespace opmig::validate

#endif
