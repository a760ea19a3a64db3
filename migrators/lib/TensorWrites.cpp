#include "TensorWrites.h"

#include "SchemaTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Index/USRGeneration.h"

#include <map>
#include <optional>

namespace opmig::migrate {

using namespace clang;

namespace {

/// How many calls deep a tensor passed to a function of the main file is
/// followed before the call counts as not writing it.
constexpr unsigned MaxCallDepth = 4;

llvm::StringRef nameOf(const NamedDecl *Decl) {
  return Decl && Decl->getIdentifier() ? Decl->getName() : llvm::StringRef();
}

bool isOptionalTensor(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec)
    return false;
  std::string Name = qualifiedName(*Spec->getSpecializedTemplate());
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return (Name == "std::optional" || Name == "c10::optional") && Args.size() > 0 &&
         Args[0].getKind() == TemplateArgument::Type && isTensorType(Args[0].getAsType());
}

/// A pointer whose pointee is not const (`float *`, `void *`): what the
/// receiver may write through.
bool isPointerToNonConst(QualType Type) {
  const auto *Pointer = Type.getCanonicalType()->getAs<PointerType>();
  return Pointer && !Pointer->getPointeeType().isConstQualified() &&
         !Pointer->getPointeeType()->isFunctionType();
}

bool isNonConstTensorReference(QualType Type) {
  const auto *Ref = Type->getAs<LValueReferenceType>();
  return Ref && !Ref->getPointeeType().getCanonicalType().isConstQualified() &&
         isTensorType(Ref->getPointeeType());
}

/// `copy_`, `zero_`, `index_put_`: torch's naming of in-place methods (a
/// trailing `__` is not one).
bool isInPlaceName(llvm::StringRef Name) {
  return Name.size() > 1 && Name.ends_with("_") && !Name.ends_with("__");
}

/// Looks through parentheses, implicit conversions, `const_cast`,
/// temporaries and copies: a copy of a tensor shares its storage.
const Expr *ignoreCopies(const Expr *E) {
  while (true) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXConstCastExpr>(Next))
      Next = Cast->getSubExpr();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next))
      if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor())
        Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
}

std::string typeText(QualType Type, const ASTContext &Ctx) {
  return Type.getAsString(Ctx.getPrintingPolicy());
}

/// What every followed call shares: the functions being analysed, which
/// count as writing nothing (a cycle), and the pointer fields the tree's
/// code writes through.
struct Followed {
  const SourceManager &SM;
  const std::set<std::string> &WrittenPointerFields;
  std::vector<const FunctionDecl *> Active;
};

std::vector<TensorWrite> analyse(const FunctionDecl &Definition, Followed &Calls, unsigned Depth);

std::string usrOf(const Decl &D) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(&D, Usr))
    return "";
  return std::string(Usr);
}

class WriteFinder : public ConstDynamicRecursiveASTVisitor {
public:
  WriteFinder(const FunctionDecl &Function, Followed &Calls, unsigned Depth)
      : Ctx(Function.getASTContext()), Calls(Calls), Depth(Depth) {
    for (unsigned I = 0; I < Function.getNumParams(); ++I) {
      const ParmVarDecl *Param = Function.getParamDecl(I);
      if (isTensorLike(Param->getType()))
        Params[Param] = I;
      else if (isPointerToNonConst(Param->getType()))
        Pointers[Param] = I; // a caller's data pointer, when this is a followed callee
    }
  }

  /// Calls, kernel launches and member calls (operators too): data
  /// pointers passed as writable, `_out` outputs, main-file callees.
  bool VisitCallExpr(const CallExpr *Call) override {
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A member operator's object is its first argument, not a parameter.
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && Method && Method->isInstance() ? 1 : 0;
    std::vector<QualType> ParamTypes = paramTypes(*Call, Callee);
    std::string Name = calleeName(*Call, Callee);
    const FunctionDecl *Local = Callee ? followable(*Callee) : nullptr;
    // A local callee's pointer parameters are followed (rule 4) instead.
    if (!Local)
      for (unsigned I = Skip; I < Call->getNumArgs() && I - Skip < ParamTypes.size(); ++I)
        checkPointerArgument(Call, Call->getArg(I), ParamTypes[I - Skip], Name);
    if (!Callee)
      return true;
    if (nameOf(Callee).ends_with("_out"))
      checkOutCall(*Call, *Callee, Skip, Name);
    if (Local)
      checkLocalCall(*Call, *Local, Skip, Name);
    return true;
  }

  bool VisitCXXConstructExpr(const CXXConstructExpr *Construct) override {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    std::string Name = qualifiedName(*Ctor->getParent());
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      checkPointerArgument(Construct, Construct->getArg(I), Ctor->getParamDecl(I)->getType(),
                           "the constructor of `" + Name + "`");
    return true;
  }

  /// Rule 1 (in-place methods) and `mutable_data_ptr`.
  bool VisitCXXMemberCallExpr(const CXXMemberCallExpr *Call) override {
    llvm::StringRef Name = nameOf(Call->getMethodDecl());
    bool Mutable = Name == "mutable_data_ptr";
    if (!Mutable && !isInPlaceName(Name))
      return true;
    if (std::optional<unsigned> Param = tensorOf(Call->getImplicitObjectArgument()))
      add(*Param, Call,
          Mutable ? "its `mutable_data_ptr` taken" : "`" + Name.str() + "` called on it");
    return true;
  }

  /// Locals that stand for a parameter: a tensor initialised from it, a
  /// pointer to non-const initialised from its data pointer.
  bool VisitVarDecl(const VarDecl *Var) override {
    const Expr *Init = Var->getInit();
    if (!Init || isa<ParmVarDecl>(Var))
      return true;
    if (isPointerToNonConst(Var->getType())) {
      if (std::optional<unsigned> Param = dataPointerOf(Init))
        Pointers[Var] = *Param;
    } else if (isTensorLike(Var->getType())) {
      if (std::optional<unsigned> Param = tensorOf(Init))
        Aliases[Var] = *Param;
    }
    return true;
  }

  bool VisitBinaryOperator(const BinaryOperator *Op) override {
    if (Op->isAssignmentOp())
      checkStore(Op, Op->getLHS());
    if (Op->getOpcode() == BO_Assign)
      if (const auto *Member = dyn_cast<MemberExpr>(Op->getLHS()->IgnoreParenImpCasts()))
        if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
          checkFieldStore(Op, *Field, Op->getRHS());
    return true;
  }

  /// `Params P{x.data_ptr(), ...}` and `Params P = {...}`: field by field.
  bool VisitInitListExpr(const InitListExpr *Written) override {
    // The semantic form has one initialiser per field, in field order.
    const InitListExpr *List = Written->isSemanticForm() ? Written : Written->getSemanticForm();
    const RecordDecl *Record = List ? List->getType()->getAsRecordDecl() : nullptr;
    if (!Record || Record->isUnion())
      return true;
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields()) {
      if (I >= List->getNumInits())
        break;
      checkFieldStore(List, *Field, List->getInit(I++));
    }
    return true;
  }

  bool VisitUnaryOperator(const UnaryOperator *Op) override {
    if (Op->isIncrementDecrementOp())
      checkStore(Op, Op->getSubExpr());
    return true;
  }

  /// Stores into class-typed elements (`__half`) are operator calls.
  bool VisitCXXOperatorCallExpr(const CXXOperatorCallExpr *Call) override {
    OverloadedOperatorKind Kind = Call->getOperator();
    if (Call->getNumArgs() > 0 &&
        (Call->isAssignmentOp() || Kind == OO_PlusPlus || Kind == OO_MinusMinus))
      checkStore(Call, Call->getArg(0));
    return true;
  }

  /// A generic lambda's body is a template: the code that runs (a dtype
  /// dispatch's, per type) is in its call operator's instantiations.
  bool VisitLambdaExpr(const LambdaExpr *Lambda) override {
    if (const FunctionTemplateDecl *Call = Lambda->getDependentCallOperator())
      for (const FunctionDecl *Instantiation : Call->specializations())
        if (const Stmt *Body = Instantiation->getBody())
          TraverseStmt(Body);
    return true;
  }

  /// One write per parameter, the first found, in parameter order.
  std::map<unsigned, TensorWrite> Found;
  /// Rule 5's writes, all of them: findTensorWrites keeps those whose field
  /// only one parameter's pointer goes into.
  std::vector<TensorWrite> ThroughFields;

private:
  /// The parameter `E` stands for: the parameter itself (or a copy of it),
  /// `*p`, `p->`, `p.value()` of an optional one, or a local tensor
  /// initialised from one of those.
  std::optional<unsigned> tensorOf(const Expr *E) const {
    E = ignoreCopies(E);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
        if (auto It = Params.find(Param); It != Params.end())
          return It->second;
      if (auto It = Aliases.find(Ref->getDecl()); It != Aliases.end())
        return It->second;
      return std::nullopt;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if ((Op->getOperator() == OO_Star || Op->getOperator() == OO_Arrow) &&
          Op->getNumArgs() == 1 && isOptionalTensor(Op->getArg(0)->getType()))
        return tensorOf(Op->getArg(0));
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
      if (nameOf(Call->getMethodDecl()) == "value" &&
          isOptionalTensor(Call->getImplicitObjectArgument()->getType()))
        return tensorOf(Call->getImplicitObjectArgument());
    return std::nullopt;
  }

  /// The parameter whose writable data pointer `E` is: `p.data_ptr<T>()`,
  /// `p.data_ptr()` or `p.mutable_data_ptr<T>()`, through casts, pointer
  /// arithmetic and `?:`, or a local pointer initialised from one.
  std::optional<unsigned> dataPointerOf(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return dataPointerOf(Cast->getSubExpr());
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      if (!Op->isAdditiveOp() || !Op->getType()->isPointerType())
        return std::nullopt;
      return dataPointerOf(Op->getLHS()->getType()->isPointerType() ? Op->getLHS() : Op->getRHS());
    }
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E)) {
      if (std::optional<unsigned> Param = dataPointerOf(Cond->getTrueExpr()))
        return Param;
      return dataPointerOf(Cond->getFalseExpr());
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (auto It = Pointers.find(Ref->getDecl()); It != Pointers.end())
        return It->second;
      return std::nullopt;
    }
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      llvm::StringRef Name = nameOf(Call->getMethodDecl());
      if (Name == "data_ptr" || Name == "mutable_data_ptr")
        return tensorOf(Call->getImplicitObjectArgument());
    }
    return std::nullopt;
  }

  /// Rule 3: a data pointer where the receiver may write through it.
  void checkPointerArgument(const Expr *Site, const Expr *Arg, QualType ParamType,
                            const std::string &Receiver) {
    if (isa<CXXDefaultArgExpr>(Arg) || !isPointerToNonConst(ParamType))
      return;
    if (std::optional<unsigned> Param = dataPointerOf(Arg))
      add(*Param, Site,
          "its data pointer passed to " + Receiver + " as `" + typeText(ParamType, Ctx) + "`");
  }

  /// Rule 3: a store through a data pointer (`p[i] = v`, `*p = v`,
  /// `p[i].x = v`, `p->x = v`).
  void checkStore(const Stmt *Site, const Expr *Target) {
    const Expr *E = Target->IgnoreParenImpCasts();
    while (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow()) {
        if (std::optional<unsigned> Param = dataPointerOf(Member->getBase()))
          add(*Param, Site, "written through its data pointer");
        return;
      }
      E = Member->getBase()->IgnoreParenImpCasts();
    }
    const Expr *Pointer = nullptr;
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      Pointer = Subscript->getBase();
    else if (const auto *Deref = dyn_cast<UnaryOperator>(E);
             Deref && Deref->getOpcode() == UO_Deref)
      Pointer = Deref->getSubExpr();
    if (!Pointer)
      return;
    if (std::optional<unsigned> Param = dataPointerOf(Pointer))
      add(*Param, Site, "written through its data pointer");
  }

  /// Rule 5: a data pointer stored in a pointer field that the tree's code
  /// writes through (a `Params` struct the kernels take).
  void checkFieldStore(const Stmt *Site, const FieldDecl &Field, const Expr *Value) {
    if (!Field.getType()->isPointerType())
      return;
    std::optional<unsigned> Param = dataPointerOf(Value);
    std::string Usr = usrOf(Field);
    if (Param && Calls.WrittenPointerFields.count(Usr))
      add(*Param, Site,
          "its data pointer stored in `" + qualifiedName(Field) +
              "`, which the tree's kernels write through",
          Usr);
  }

  /// The definition of `Callee` if rule 4 follows it: defined in the main
  /// file, not too deep, not already being followed.
  const FunctionDecl *followable(const FunctionDecl &Callee) const {
    const FunctionDecl *Definition = nullptr;
    if (Depth >= MaxCallDepth || !Callee.hasBody(Definition) || !Definition->getBody() ||
        !Calls.SM.isInMainFile(Calls.SM.getExpansionLoc(Definition->getLocation())) ||
        llvm::is_contained(Calls.Active, Definition->getCanonicalDecl()))
      return nullptr;
    return Definition;
  }

  /// Rule 2: the leading arguments of an `_out` function that it takes by
  /// non-const `at::Tensor &`.
  void checkOutCall(const CallExpr &Call, const FunctionDecl &Callee, unsigned Skip,
                    const std::string &Name) {
    for (unsigned P = 0; P < Callee.getNumParams() && P + Skip < Call.getNumArgs(); ++P) {
      if (!isNonConstTensorReference(Callee.getParamDecl(P)->getType()))
        return;
      if (std::optional<unsigned> Param = tensorOf(Call.getArg(P + Skip)))
        add(*Param, &Call, "passed to " + Name + " as an output");
    }
  }

  /// Rule 4: a tensor, or its data pointer, passed to a function of the
  /// main file that writes the parameter it is bound to.
  void checkLocalCall(const CallExpr &Call, const FunctionDecl &Definition, unsigned Skip,
                      const std::string &Name) {
    std::map<unsigned, unsigned> Bound; // Callee parameter -> our parameter.
    for (unsigned P = 0; P < Definition.getNumParams() && P + Skip < Call.getNumArgs(); ++P) {
      QualType Type = Definition.getParamDecl(P)->getType();
      const Expr *Arg = Call.getArg(P + Skip);
      std::optional<unsigned> Param = isTensorLike(Type)          ? tensorOf(Arg)
                                      : isPointerToNonConst(Type) ? dataPointerOf(Arg)
                                                                  : std::nullopt;
      if (Param)
        Bound[P] = *Param;
    }
    if (Bound.empty())
      return;
    for (const TensorWrite &Inner : analyse(Definition, Calls, Depth + 1))
      if (auto It = Bound.find(Inner.Param); It != Bound.end())
        add(It->second, &Call,
            "passed to " + Name + ", which writes its parameter `" +
                Definition.getParamDecl(Inner.Param)->getNameAsString() + "` (" + Inner.How + ")",
            Inner.Field);
  }

  std::vector<QualType> paramTypes(const CallExpr &Call, const FunctionDecl *Callee) const {
    std::vector<QualType> Types;
    if (Callee) {
      for (const ParmVarDecl *Param : Callee->parameters())
        Types.push_back(Param->getType());
      return Types;
    }
    // A call through a function pointer: the parameters of its type.
    QualType Type = Call.getCallee()->getType();
    if (const auto *Pointer = Type->getAs<PointerType>())
      Type = Pointer->getPointeeType();
    if (const auto *Proto = Type->getAs<FunctionProtoType>())
      Types.assign(Proto->param_type_begin(), Proto->param_type_end());
    return Types;
  }

  static std::string calleeName(const CallExpr &Call, const FunctionDecl *Callee) {
    std::string Name = Callee ? qualifiedName(*Callee) : "a function pointer";
    if (isa<CUDAKernelCallExpr>(Call))
      return "kernel `" + Name + "`";
    return Callee ? "`" + Name + "`" : Name;
  }

  void add(unsigned Param, const Stmt *Site, std::string How, std::string Field = "") {
    TensorWrite Write{Param, Site, std::move(How), std::move(Field)};
    if (Write.Field.empty())
      Found.try_emplace(Param, std::move(Write));
    else
      ThroughFields.push_back(std::move(Write));
  }

  const ASTContext &Ctx;
  Followed &Calls;
  unsigned Depth;
  std::map<const ParmVarDecl *, unsigned> Params;
  std::map<const Decl *, unsigned> Aliases, Pointers;
};

/// The writes of `Definition`'s tensor parameters (and, for a followed
/// callee, of its pointer parameters).
std::vector<TensorWrite> analyse(const FunctionDecl &Definition, Followed &Calls, unsigned Depth) {
  std::vector<TensorWrite> Writes;
  if (!Definition.getBody())
    return Writes;
  Calls.Active.push_back(Definition.getCanonicalDecl());
  WriteFinder Finder(Definition, Calls, Depth);
  Finder.TraverseStmt(Definition.getBody());
  Calls.Active.pop_back();
  for (auto &[Param, Write] : Finder.Found)
    Writes.push_back(std::move(Write));
  for (TensorWrite &Write : Finder.ThroughFields)
    Writes.push_back(std::move(Write));
  return Writes;
}

/// One write per parameter, in parameter order: the first by rules 1-4,
/// else the first by rule 5 through a field that no other parameter's
/// pointer goes into. A field several tensors go into (`Buffer{void *data}`
/// made of the inputs and the outputs alike) does not tell which of them the
/// kernels write.
std::vector<TensorWrite> onePerParameter(std::vector<TensorWrite> Writes) {
  std::map<std::string, std::set<unsigned>> ParamsOfField;
  for (const TensorWrite &Write : Writes)
    if (!Write.Field.empty())
      ParamsOfField[Write.Field].insert(Write.Param);
  std::map<unsigned, TensorWrite> Chosen;
  for (TensorWrite &Write : Writes)
    if (Write.Field.empty())
      Chosen.try_emplace(Write.Param, std::move(Write));
  for (TensorWrite &Write : Writes)
    if (!Write.Field.empty() && ParamsOfField[Write.Field].size() == 1)
      Chosen.try_emplace(Write.Param, std::move(Write));
  std::vector<TensorWrite> Out;
  for (auto &[Param, Write] : Chosen)
    Out.push_back(std::move(Write));
  return Out;
}

/// Calls and constructions that take one variable as an argument, and
/// whether the callee's body is out of the write rules' sight.
class ReceiverFinder : public ConstDynamicRecursiveASTVisitor {
public:
  ReceiverFinder(const VarDecl &Var, const SourceManager &SM) : Var(Var), SM(SM) {}

  bool VisitCallExpr(const CallExpr *Call) override {
    if (llvm::none_of(Call->arguments(), [&](const Expr *Arg) { return names(Arg); }))
      return true;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      Unseen.insert("a function pointer");
    else if (!seen(*Callee))
      Unseen.insert(qualifiedName(*Callee));
    return true;
  }

  bool VisitCXXConstructExpr(const CXXConstructExpr *Construct) override {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor->isCopyOrMoveConstructor() && isTensorLike(Ctor->getThisType()->getPointeeType()))
      return true; // a copy is an alias, which the rules follow
    if (llvm::any_of(Construct->arguments(), [&](const Expr *Arg) { return names(Arg); }) &&
        !seen(*Ctor))
      Unseen.insert(qualifiedName(*Ctor->getParent()));
    return true;
  }

  std::set<std::string> Unseen;

private:
  bool names(const Expr *Arg) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(ignoreCopies(Arg));
    return Ref && Ref->getDecl() == &Var;
  }

  /// torch's, the toolkit's and the standard library's functions say by
  /// their types what they write (rules 1 and 2 read them); the main
  /// file's are followed (rule 4).
  bool seen(const FunctionDecl &Callee) const {
    std::string Name = qualifiedName(Callee);
    for (llvm::StringRef Library : {"at::", "c10::", "torch::", "std::", "caffe2::"})
      if (llvm::StringRef(Name).starts_with(Library))
        return true;
    const FunctionDecl *Definition = nullptr;
    return Callee.hasBody(Definition) &&
           SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation()));
  }

  const VarDecl &Var;
  const SourceManager &SM;
};

} // namespace

bool isTensorLike(QualType Type) { return isTensorType(Type) || isOptionalTensor(Type); }

std::vector<std::string> unseenReceivers(const FunctionDecl &Function, unsigned Param,
                                         const SourceManager &SM) {
  const FunctionDecl *Definition = nullptr;
  if (!Function.hasBody(Definition) || !Definition->getBody())
    return {"the function itself, whose body is not seen"};
  ReceiverFinder Finder(*Definition->getParamDecl(Param), SM);
  Finder.TraverseStmt(Definition->getBody());
  return {Finder.Unseen.begin(), Finder.Unseen.end()};
}

std::vector<TensorWrite> findTensorWrites(const FunctionDecl &Function, const SourceManager &SM,
                                          const std::set<std::string> &WrittenPointerFields) {
  const FunctionDecl *Definition = nullptr;
  if (!Function.hasBody(Definition))
    return {};
  Followed Calls{SM, WrittenPointerFields, {}};
  std::vector<TensorWrite> Writes = onePerParameter(analyse(*Definition, Calls, /*Depth=*/0));
  llvm::erase_if(Writes, [&](const TensorWrite &Write) {
    return !isTensorLike(Definition->getParamDecl(Write.Param)->getType());
  });
  return Writes;
}

} // namespace opmig::migrate
