#include "SchemaTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "llvm/ADT/StringSwitch.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// The class template that the canonical `Type` specializes, if any.
const ClassTemplateSpecializationDecl *specializationOf(QualType Type) {
  return dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getCanonicalType()->getAsCXXRecordDecl());
}

std::string templateName(const ClassTemplateSpecializationDecl &Spec) {
  return qualifiedName(*Spec.getSpecializedTemplate());
}

std::optional<SchemaType> plain(const char *Schema, const char *Python, bool IsTensor = false) {
  return SchemaType{Schema, Python, IsTensor, false, ""};
}

/// A scalar the dispatcher passes as `Boxed`.
std::optional<SchemaType> boxed(const char *Schema, const char *Boxed) {
  return SchemaType{Schema, Schema, false, false, Boxed};
}

std::optional<SchemaType> mapBuiltin(const BuiltinType &Builtin) {
  switch (Builtin.getKind()) {
  case BuiltinType::Bool:
    return plain("bool", "bool");
  // The dispatcher passes every `int` as int64_t; narrower signed types are
  // what upstream often declares anyway.
  case BuiltinType::Int:
  case BuiltinType::LongLong:
    return boxed("int", "int64_t");
  case BuiltinType::Long: // int64_t on the LP64 platforms torch supports
    return plain("int", "int");
  case BuiltinType::Float:
    return boxed("float", "double");
  case BuiltinType::Double:
    return plain("float", "float");
  default:
    return std::nullopt;
  }
}

bool isCharType(QualType Type) {
  return Type.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Char_S) ||
         Type.getCanonicalType()->isSpecificBuiltinType(BuiltinType::Char_U);
}

std::optional<SchemaType> mapValue(QualType Type);

/// `std::optional<T>`, strings and lists: the class templates the schema
/// language has a spelling for.
std::optional<SchemaType> mapSpecialization(const ClassTemplateSpecializationDecl &Spec) {
  const TemplateArgumentList &Args = Spec.getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type)
    return std::nullopt;
  QualType Arg = Args[0].getAsType();
  std::string Name = templateName(Spec);
  if (Name == "std::optional" || Name == "c10::optional") {
    std::optional<SchemaType> Inner = mapValue(Arg);
    if (!Inner || llvm::StringRef(Inner->Schema).ends_with("?"))
      return std::nullopt;
    return SchemaType{Inner->Schema + "?", Inner->Python + " | None", false, false,
                      Inner->Boxed.empty() ? "" : "std::optional<" + Inner->Boxed + ">"};
  }
  if (Name == "std::basic_string" || Name == "std::basic_string_view" ||
      Name == "c10::basic_string_view")
    return isCharType(Arg) ? plain("str", "str") : std::nullopt;
  if (Name == "std::vector" || Name == "c10::ArrayRef") {
    std::optional<SchemaType> Element = mapValue(Arg);
    if (!Element || !llvm::is_contained({"Tensor", "int", "float", "bool"}, Element->Schema))
      return std::nullopt;
    return SchemaType{Element->Schema + "[]", "list[" + Element->Python + "]", false, false, ""};
  }
  return std::nullopt;
}

/// A type passed by value or by const reference.
std::optional<SchemaType> mapValue(QualType Type) {
  QualType Canonical = Type.getCanonicalType().getUnqualifiedType();
  if (const auto *Builtin = Canonical->getAs<BuiltinType>())
    return mapBuiltin(*Builtin);
  if (isScalarTypeEnum(Canonical))
    return plain("ScalarType", "torch.dtype");
  const CXXRecordDecl *Record = Canonical->getAsCXXRecordDecl();
  if (!Record)
    return std::nullopt;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record))
    return mapSpecialization(*Spec);
  std::string Name = qualifiedName(*Record);
  if (Name == "at::Tensor")
    return plain("Tensor", "torch.Tensor", /*IsTensor=*/true);
  if (Name == "c10::Scalar")
    return plain("Scalar", "int | float | bool");
  if (Name == "c10::Device")
    return plain("Device", "torch.device");
  return std::nullopt;
}

} // namespace

std::string qualifiedName(const NamedDecl &Decl) {
  PrintingPolicy Policy(Decl.getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace =
      llvm::to_underlying(PrintingPolicy::SuppressInlineNamespaceMode::All);
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Decl.printQualifiedName(OS, Policy);
  return Name;
}

bool isTensorType(QualType Type) {
  const CXXRecordDecl *Record = Type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return Record && qualifiedName(*Record) == "at::Tensor";
}

namespace {

/// `std::optional<at::Tensor>` (c10::optional is an alias of it or a twin).
bool isOptionalTensorType(QualType Type) {
  const ClassTemplateSpecializationDecl *Spec = specializationOf(Type);
  if (!Spec || !llvm::is_contained({"std::optional", "c10::optional"}, templateName(*Spec)))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type &&
         isTensorType(Args[0].getAsType());
}

} // namespace

bool isScalarTypeEnum(QualType Type) {
  const auto *Enum = Type.getCanonicalType()->getAs<EnumType>();
  return Enum && qualifiedName(*Enum->getDecl()) == "c10::ScalarType";
}

std::optional<SchemaType> mapParamType(QualType Type) {
  if (const auto *Ref = Type->getAs<LValueReferenceType>()) {
    QualType Pointee = Ref->getPointeeType();
    if (Pointee.getCanonicalType().isConstQualified())
      return mapValue(Pointee);
    if (isTensorType(Pointee))
      return SchemaType{"Tensor", "torch.Tensor", true, true, ""};
    // `std::optional<at::Tensor> &out_` (flash-attn, causal-conv1d): the
    // dispatcher passes the optional by value; the adapter hands the upstream
    // function that copy, which holds the caller's tensor.
    if (isOptionalTensorType(Pointee))
      return SchemaType{"Tensor?", "torch.Tensor | None", false, true, "std::optional<at::Tensor>"};
    return std::nullopt;
  }
  if (Type->isReferenceType())
    return std::nullopt;
  return mapValue(Type);
}

namespace {

/// One result: a value, or a non-const tensor reference (mutable).
std::optional<SchemaType> mapResult(QualType Type) {
  if (Type->isReferenceType()) {
    std::optional<SchemaType> Param = mapParamType(Type);
    if (Param && Param->Mutable)
      return Param;
    return std::nullopt;
  }
  return mapValue(Type);
}

} // namespace

std::optional<ReturnTypes> mapReturnType(QualType Type) {
  ReturnTypes Result;
  if (Type->isVoidType())
    return Result;
  const ClassTemplateSpecializationDecl *Spec = specializationOf(Type);
  if (Spec && !Type->isReferenceType() && templateName(*Spec) == "std::tuple") {
    Result.Form = ReturnForm::Tuple;
    for (const TemplateArgument &Arg : Spec->getTemplateArgs()[0].getPackAsArray()) {
      std::optional<SchemaType> Element = mapResult(Arg.getAsType());
      if (!Element)
        return std::nullopt;
      Result.Elements.push_back(*Element);
    }
    return Result;
  }
  std::optional<SchemaType> Element = mapResult(Type);
  if (!Element)
    return std::nullopt;
  Result.Form = Element->Schema == "Tensor[]" ? ReturnForm::List : ReturnForm::Single;
  Result.Elements.push_back(*Element);
  return Result;
}

std::string printQualified(QualType Type, const ASTContext &Ctx, llvm::StringRef Name) {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  QualType Qualified = TypeName::getFullyQualifiedType(Type, Ctx, /*WithGlobalNsPrefix=*/false);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Qualified.print(OS, Policy, Name);
  return Text;
}

} // namespace opmig::migrate
