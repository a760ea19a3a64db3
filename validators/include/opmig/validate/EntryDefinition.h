//===- EntryDefinition.h - An entry defined in a TU, read as text -*- C++ -*-===//
//
// A pybind TU (or any .cpp/.cu) often defines the entry with no header
// declaring it. The upstream registration TU (UpstreamRegistration.h) must
// then declare it itself, exactly as the defining TU wrote it, and link that
// TU. validate has no Clang: this reads the definition from the text, with
// comments, strings and preprocessor lines blanked out:
//
//   namespace ops {                              -> Namespaces {"ops"}
//   std::vector<at::Tensor> fused(const at::Tensor &x, double eps = 1e-6) {
//                                                -> ReturnType, Parameters
//                                                   (`double eps`: defaults dropped)
//
// and the headers the TU includes from the upstream tree, for the types of
// the signature. A definition no other TU can call (`static`, `inline`, in
// an anonymous namespace), a template, or one whose signature names a type
// the TU declares itself is an InputError that says so.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_ENTRYDEFINITION_H
#define OPMIG_VALIDATE_ENTRYDEFINITION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::validate {

struct EntryDefinition {
  std::string File; ///< As given (the TU, SourceRoot-relative).
  unsigned Line = 0;
  std::vector<std::string> Namespaces; ///< Outermost first.
  std::string Name;                    ///< Unqualified.
  std::string ReturnType;              ///< As written, whitespace collapsed.
  std::vector<std::string> Parameters; ///< As written, without default arguments.
  /// The spellings of the TU's unconditional `#include`s, in order.
  std::vector<std::string> Includes;

  /// `namespace ops { at::Tensor fused(const at::Tensor &x); }`.
  std::string declaration() const;
  /// `::ops::fused`.
  std::string qualifiedName() const;
};

/// The definition of `Function` (unqualified, or qualified as the manifest
/// records it: the namespaces must then agree) at namespace scope of `Text`,
/// the TU `File`; nullopt when the TU does not define it. InputError when it
/// does, but another TU cannot declare and call it.
llvm::Expected<std::optional<EntryDefinition>>
findEntryDefinition(llvm::StringRef Function, llvm::StringRef Text, const std::string &File);

/// `Text` with comments, string and character literals and preprocessor
/// lines (continuations included) replaced by spaces; newlines are kept.
std::string blankedCode(llvm::StringRef Text);

} // namespace opmig::validate

#endif
