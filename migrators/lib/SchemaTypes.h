//===- SchemaTypes.h - C++ types in torch's schema language -----*- C++ -*-===//
//
// Maps the C++ types of an op's parameters and result to torch's schema
// language and to Python annotations, looking through typedefs and aliases
// (`torch::Tensor` is `at::Tensor`):
//
//   const at::Tensor &            -> Tensor        torch.Tensor
//   at::Tensor &                  -> Tensor (mutable; the caller names the alias set)
//   std::optional<at::Tensor>     -> Tensor?       torch.Tensor | None
//   int64_t, double, bool         -> int, float, bool
//   int, long long, float         -> int, int, float (boxed as int64_t, double)
//   at::IntArrayRef               -> int[]         list[int]
//   std::tuple<at::Tensor, int64_t> (result) -> (Tensor, int)
//
// Mutability here is the type's only: a tensor taken by value, by const
// reference or as an optional that the body writes is made mutable by the
// caller (OpSignature, from TensorWrites.h), which spells both as
// `Tensor(a!)`, `Tensor(a!)?`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_SCHEMATYPES_H
#define OPMIG_MIGRATE_LIB_SCHEMATYPES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

/// One parameter or result type in the schema language.
struct SchemaType {
  std::string Schema;    ///< `Tensor`, `int?`, `Tensor[]`; never an alias annotation.
  std::string Python;    ///< `torch.Tensor`, `int | None`, `list[torch.Tensor]`.
  bool IsTensor = false; ///< Exactly one tensor: not an optional, not a list.
  /// A non-const `at::Tensor &` or `std::optional<at::Tensor> &` (by its
  /// type alone).
  bool Mutable = false;
  /// The C++ type torch's dispatcher passes for it, when the declared type
  /// cannot be registered as is (`double` for `float`, `int64_t` for `int`,
  /// `std::optional<double>` for `std::optional<float>`); empty otherwise.
  std::string Boxed;
};

/// Maps a parameter type; nullopt when the schema language cannot express it
/// (pointers, rvalue references, non-const references to what is neither a
/// tensor nor an optional tensor, ...).
std::optional<SchemaType> mapParamType(clang::QualType Type);

/// How the values an op returns are laid out in its C++ result.
enum class ReturnForm {
  Void,   ///< `void`: the schema returns `()`.
  Single, ///< One value.
  Tuple,  ///< `std::tuple<...>`: one schema result per element.
  List,   ///< `std::vector<at::Tensor>`: one `Tensor[]` result.
};

struct ReturnTypes {
  ReturnForm Form = ReturnForm::Void;
  std::vector<SchemaType> Elements; ///< One per result; one `Tensor[]` for a list.
};

/// Maps a result type (a non-const `at::Tensor &` is a mutable `Tensor`,
/// also inside a tuple); nullopt when the schema language cannot express it.
std::optional<ReturnTypes> mapReturnType(clang::QualType Type);

/// Whether `Type`, without references and qualifiers, is `at::Tensor`.
bool isTensorType(clang::QualType Type);

/// Whether `Type`, without qualifiers, is the enum `c10::ScalarType`.
bool isScalarTypeEnum(clang::QualType Type);

/// The qualified name of `Decl` without inline namespaces (`std::basic_string`,
/// not `std::__cxx11::basic_string`).
std::string qualifiedName(const clang::NamedDecl &Decl);

/// `Type` spelled with fully qualified names, followed by `Name` where a
/// declarator puts it (`const at::Tensor &x`), so that the text compiles
/// outside the namespace that declared it.
std::string printQualified(clang::QualType Type, const clang::ASTContext &Ctx,
                           llvm::StringRef Name = "");

} // namespace opmig::migrate

#endif
