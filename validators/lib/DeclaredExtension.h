//===- DeclaredExtension.h - What a target declares it builds ---*- C++ -*-===//
//
// A domain's extension as the target declares it, read with CPython's own
// `ast` by the embedded python/declared_extension.py (never with regexes):
//
//   cache-dit  the `CUDAExtension(...)` that `_get_<domain>_extension()` of
//              the domain's `setup-extension` block of setup.py builds;
//   veomni     the `torch.utils.cpp_extension.load(...)` with which the
//              domain's cuda_impl.py builds its extension on first use.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_DECLAREDEXTENSION_H
#define OPMIG_VALIDATE_LIB_DECLAREDEXTENSION_H

#include "opmig/validate/BuildPlan.h"

#include "llvm/Support/Error.h"

#include <string>

namespace opmig::validate {

/// Reads `<Root>/setup.py`'s block of `Domain` with `Python`. InputError
/// when the file or the block is missing or the block declares its
/// extension in a form the reader does not follow.
llvm::Expected<ExtensionDeclaration>
readSetupBlock(const std::string &Python, const std::string &Root, const std::string &Domain);

/// Reads the `load(...)` call of `<Root>/<ImplFile>` (root-relative) with
/// `Python`. InputError when the file is missing or builds its extension in
/// a form the reader does not follow.
llvm::Expected<ExtensionDeclaration>
readJitLoadCall(const std::string &Python, const std::string &Root, const std::string &ImplFile);

/// The declaration in the helper's JSON answer; InputError naming `Origin`
/// for an `error` answer.
llvm::Expected<ExtensionDeclaration> parseDeclarationAnswer(llvm::StringRef Answer,
                                                            llvm::StringRef Origin);

} // namespace opmig::validate

#endif
