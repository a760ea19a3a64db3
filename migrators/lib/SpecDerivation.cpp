//===- SpecDerivation.cpp - An op's starting validation spec --------------===//

#include "SpecDerivation.h"

#include "EntryChecks.h"
#include "LocalWrites.h"
#include "opmig/support/Paths.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <map>
#include <set>

namespace opmig::migrate {

using namespace clang;

namespace {

/// The spec's name (`torch.<name>`) of an enumerator of c10::ScalarType.
std::optional<std::string> dtypeName(llvm::StringRef Enumerator) {
  return llvm::StringSwitch<std::optional<std::string>>(Enumerator)
      .Case("Bool", "bool")
      .Case("Byte", "uint8")
      .Case("Char", "int8")
      .Case("Short", "int16")
      .Case("UInt16", "uint16")
      .Case("Int", "int32")
      .Case("Long", "int64")
      .Case("Half", "float16")
      .Case("BFloat16", "bfloat16")
      .Case("Float", "float32")
      .Case("Double", "float64")
      .Case("ComplexHalf", "complex32")
      .Case("ComplexFloat", "complex64")
      .Case("ComplexDouble", "complex128")
      .Case("Float8_e4m3fn", "float8_e4m3fn")
      .Case("Float8_e5m2", "float8_e5m2")
      .Case("Float8_e4m3fnuz", "float8_e4m3fnuz")
      .Case("Float8_e5m2fnuz", "float8_e5m2fnuz")
      .Default(std::nullopt);
}

/// Looks through what does not change a value: parentheses, implicit and
/// explicit casts, temporaries and converting constructors
/// (`caffe2::TypeMeta` from a ScalarType).
const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParenCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
        Construct && Construct->getNumArgs() == 1)
      Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// `Object.Method()` with its object looked through; null otherwise.
const Expr *methodObject(const Expr *E, llvm::StringRef &Method) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(strip(E));
  const CXXMethodDecl *Decl = Call ? Call->getMethodDecl() : nullptr;
  if (!Decl || !Decl->getIdentifier())
    return nullptr;
  Method = Decl->getName();
  return strip(Call->getImplicitObjectArgument());
}

/// A size of a tensor parameter: `x.size(i)` or `x.sizes()[i]`, directly
/// or through a `const` local initialised with one (whose name is `Alias`).
/// `i` may count from the end: `-1`, `x.dim() - 1`.
struct SizeTerm {
  unsigned Param = 0;
  int64_t Index = 0;
  std::string Alias;
};

/// Integer arithmetic over sizes and literals, as a check writes it.
struct DimExpr {
  enum Kind { Size, Literal, Binary } K = Literal;
  SizeTerm Term;
  int64_t Value = 0;
  std::string Op;
  std::shared_ptr<DimExpr> Left, Right;
};

/// A relation to apply once every rank is known (a negative index counts
/// from the end).
struct PendingEqual {
  SizeTerm A, B;
};
struct PendingConstraint {
  DimExpr Left, Right;
  std::string Op;
  std::string At;
};

class Deriver {
public:
  Deriver(const SpecRequest &Request, ASTContext &Ctx)
      : Request(Request), Ctx(Ctx), Function(*Request.Function),
        Params(Request.Function->getNumParams()) {
    findRebindings();
  }

  void run(SpecOp &Op) {
    EntryChecks Checks = findEntryChecks(
        Function, [this](const FunctionDecl &Helper) { return inTree(Helper.getLocation()); });
    for (const InFrame<VarDecl> &Local : Checks.Locals) {
      Frame = Local.Frame;
      if (std::optional<SizeTerm> Term = localSize(Local.Node))
        Aliases.push_back(*Term);
    }
    for (const InFrame<SwitchStmt> &Switch : Checks.Switches) {
      Frame = Switch.Frame;
      dispatch(*Switch.Node);
    }
    for (const Requirement &R : Checks.Requirements) {
      Frame = R.Frame;
      require(R.Condition, R.Negated, where(R.Check));
    }
    Frame = nullptr;
    applyDims();
    fill(Op);
  }

private:
  const SpecRequest &Request;
  ASTContext &Ctx;
  const FunctionDecl &Function;

  struct ParamFacts {
    std::optional<int64_t> Rank;
    std::string RankAt;
    /// `x.dim() >= 2`, `x.dim() > 1`: the least rank, while none is known.
    std::optional<int64_t> MinRank;
    std::string MinRankAt;
    std::optional<std::vector<std::string>> Dtypes;
    std::string DtypesAt;
    std::string SameDtypeAt; ///< The first check tying its dtype to another's.
    std::string ContiguousAt, CudaAt;
    /// Compared whole with another tensor's shape, which tells no rank:
    /// any shape, the other's (`["..."]` on both).
    std::string AnyShapeAt;
  };
  std::vector<ParamFacts> Params;
  /// The helper call the check being read was written in (none: the
  /// entry's body): its parameters name the arguments of that call.
  const CallFrame *Frame = nullptr;
  std::vector<SizeTerm> Aliases;
  std::vector<std::pair<PendingEqual, std::string>> Equal;
  struct FixedSize {
    SizeTerm Term;
    int64_t Value = 0;
    std::string At;
  };
  std::vector<FixedSize> Fixed;
  std::vector<std::pair<unsigned, unsigned>> SameDtype;
  /// `a.sizes() == b.sizes()`, `a.is_same_size(b)`: one shape, dim by dim.
  struct SameShapePair {
    unsigned A = 0, B = 0;
    std::string At;
  };
  std::vector<SameShapePair> SameShape;
  std::vector<PendingConstraint> Constraints;

  // Dims after applyDims(): a union-find over (parameter, index).
  std::map<std::pair<unsigned, int64_t>, std::pair<unsigned, int64_t>> Parent;
  std::map<std::pair<unsigned, int64_t>, std::string> ClassName;
  std::map<std::pair<unsigned, int64_t>, int64_t> ClassSize;
  std::vector<std::pair<std::string, std::string>> ConstraintTexts;

  /// Per tensor of unknown rank: how far from the end its checks reach,
  /// whether one indexes it from the front, and where the first is.
  struct Reach {
    int64_t Back = 0;
    bool Front = false;
    std::string At;
  };
  std::map<unsigned, Reach> Reaches;
  /// Where the body first assigns a parameter (findRebindings).
  std::map<const ParmVarDecl *, SourceLocation> ReboundAt;

  std::string where(const Stmt *S) const {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(S->getBeginLoc());
    llvm::StringRef File = SM.getFilename(Loc);
    File.consume_front(Request.SourceRoot + "/");
    return File.str() + ":" + std::to_string(SM.getExpansionLineNumber(Loc)) + ":" +
           std::to_string(SM.getExpansionColumnNumber(Loc));
  }

  /// Whether `Loc` is in the upstream tree (a helper of its own), not in
  /// torch's or the toolkit's headers.
  bool inTree(SourceLocation Loc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef File = SM.getFilename(SM.getExpansionLoc(Loc));
    return isBelow(File, Request.SourceRoot);
  }

  /// `x = x.reshape({-1, d})`: from there on `x` is not the caller's
  /// tensor, so a check written after it tells nothing of the input.
  void findRebindings() {
    const FunctionDecl *Definition = nullptr;
    if (!Function.hasBody(Definition) || !Definition->getBody())
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    for (const ParmVarDecl *Param : Definition->parameters())
      if (const Stmt *Assignment = firstAssignment(*Param, *Definition->getBody()))
        ReboundAt[Param] = SM.getExpansionLoc(Assignment->getBeginLoc());
  }

  /// Whether `Ref` names its parameter after the body rebinds it.
  bool pastRebinding(const DeclRefExpr &Ref, const ParmVarDecl &Param) const {
    auto It = ReboundAt.find(&Param);
    const SourceManager &SM = Ctx.getSourceManager();
    return It != ReboundAt.end() &&
           SM.isBeforeInTranslationUnit(It->second, SM.getExpansionLoc(Ref.getBeginLoc()));
  }

  /// The index of a tensor parameter `E` names: the entry's own, or a
  /// followed helper's bound to one.
  std::optional<unsigned> tensorParam(const Expr *E) const { return tensorParam(E, Frame); }

  std::optional<unsigned> tensorParam(const Expr *E, const CallFrame *In) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (Param && Param->getDeclContext() != &Function) {
      for (; In; In = In->Caller)
        if (auto Bound = In->Arguments.find(Param); Bound != In->Arguments.end())
          return tensorParam(Bound->second, In->Caller);
      return std::nullopt;
    }
    if (!Param || pastRebinding(*Ref, *Param))
      return std::nullopt;
    unsigned Index = Param->getFunctionScopeIndex();
    if (Index >= Request.Signature->Params.size() ||
        !isTensorSchemaType(Request.Signature->Params[Index].SchemaType))
      return std::nullopt;
    return Index;
  }

  /// A local of the body with an initializer, or null.
  const VarDecl *local(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(strip(E));
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() || !Var->getInit())
      return nullptr;
    return Var;
  }

  /// The tensor parameter whose dtype `E` is: `x.scalar_type()`,
  /// `x.dtype()`, through one-argument conversions
  /// (`::detail::scalar_type(t)`) and locals initialised with one (the
  /// `_st` of AT_DISPATCH_SWITCH).
  std::optional<unsigned> dtypeOf(const Expr *E, unsigned Depth = 0) const {
    if (Depth > 8)
      return std::nullopt;
    llvm::StringRef Method;
    if (const Expr *Object = methodObject(E, Method))
      return Method == "scalar_type" || Method == "dtype" ? tensorParam(Object) : std::nullopt;
    if (const VarDecl *Var = local(E))
      return dtypeOf(Var->getInit(), Depth + 1);
    const auto *Call = dyn_cast<CallExpr>(strip(E));
    if (Call && !isa<CXXMemberCallExpr>(Call) && Call->getNumArgs() == 1)
      return dtypeOf(Call->getArg(0), Depth + 1);
    return std::nullopt;
  }

  /// The dtype a constant of c10::ScalarType names (`at::kHalf`,
  /// `at::ScalarType::Half`, `torch::kFloat32`); not a variable.
  std::optional<std::string> dtypeConstant(const Expr *E) const {
    E = strip(E);
    const EnumType *Enum = E->getType()->getAs<EnumType>();
    APValue Value;
    // A scoped enum is no integer constant expression: ask for any constant.
    if (!Enum || Enum->getDecl()->getName() != "ScalarType" || E->isValueDependent() ||
        !E->isCXX11ConstantExpr(Ctx, &Value) || !Value.isInt())
      return std::nullopt;
    for (const EnumConstantDecl *Constant : Enum->getDecl()->enumerators())
      if (llvm::APSInt::isSameValue(Constant->getInitVal(), Value.getInt()))
        return dtypeName(Constant->getName());
    return std::nullopt;
  }

  /// `x.dim()`, `x.ndimension()`, `x.sizes().size()`.
  std::optional<unsigned> rankOf(const Expr *E) const {
    llvm::StringRef Method, Inner;
    const Expr *Object = methodObject(E, Method);
    if (!Object)
      return std::nullopt;
    if (Method == "dim" || Method == "ndimension")
      return tensorParam(Object);
    if (Method == "size")
      if (const Expr *Tensor = methodObject(Object, Inner); Tensor && Inner == "sizes")
        return tensorParam(Tensor);
    return std::nullopt;
  }

  /// An integer literal, or a negated one; never a variable.
  static std::optional<int64_t> literal(const Expr *E) {
    E = strip(E);
    bool Negative = false;
    if (const auto *Minus = dyn_cast<UnaryOperator>(E); Minus && Minus->getOpcode() == UO_Minus) {
      Negative = true;
      E = strip(Minus->getSubExpr());
    }
    const auto *Literal = dyn_cast<IntegerLiteral>(E);
    if (!Literal || Literal->getValue().getActiveBits() > 62)
      return std::nullopt;
    int64_t Value = static_cast<int64_t>(Literal->getValue().getZExtValue());
    return Negative ? -Value : Value;
  }

  /// A dim index of tensor parameter `Param`: a literal, or `x.dim() - k`
  /// (as `-k`, counted from the end).
  std::optional<int64_t> index(const Expr *E, unsigned Param) const {
    if (std::optional<int64_t> Value = literal(E))
      return Value;
    const auto *Minus = dyn_cast<BinaryOperator>(strip(E));
    if (!Minus || Minus->getOpcode() != BO_Sub || rankOf(Minus->getLHS()) != Param)
      return std::nullopt;
    std::optional<int64_t> Back = literal(Minus->getRHS());
    return Back && *Back > 0 ? std::optional<int64_t>(-*Back) : std::nullopt;
  }

  std::optional<SizeTerm> sizeOf(const Expr *E) const {
    llvm::StringRef Method, Inner;
    if (const Expr *Object = methodObject(E, Method); Object && Method == "size") {
      const auto *Call = cast<CXXMemberCallExpr>(strip(E));
      std::optional<unsigned> Param = tensorParam(Object);
      std::optional<int64_t> Index =
          Param && Call->getNumArgs() == 1 ? index(Call->getArg(0), *Param) : std::nullopt;
      if (Param && Index)
        return SizeTerm{*Param, *Index, ""};
      return std::nullopt;
    }
    if (const auto *Subscript = dyn_cast<CXXOperatorCallExpr>(strip(E));
        Subscript && Subscript->getOperator() == OO_Subscript && Subscript->getNumArgs() == 2)
      if (const Expr *Tensor = sizesObject(Subscript->getArg(0)))
        if (std::optional<unsigned> Param = tensorParam(Tensor))
          if (std::optional<int64_t> Index = index(Subscript->getArg(1), *Param))
            return SizeTerm{*Param, *Index, ""};
    if (const VarDecl *Var = local(E))
      return localSize(Var);
    return std::nullopt;
  }

  /// The tensor of `x.sizes()`, directly or through a `const` local
  /// initialised with it (`const auto sizes = x.sizes(); sizes[0]`).
  const Expr *sizesObject(const Expr *E) const {
    llvm::StringRef Method;
    if (const Expr *Tensor = methodObject(E, Method))
      return Method == "sizes" ? Tensor : nullptr;
    const VarDecl *Var = local(E);
    if (!Var || !Var->getType().isConstQualified())
      return nullptr;
    const Expr *Tensor = methodObject(Var->getInit(), Method);
    return Tensor && Method == "sizes" ? Tensor : nullptr;
  }

  /// The items of a list a shape is compared with: `IntArrayRef({a, b})`
  /// (CHECK_SHAPE's). Tested on that shape only: `at::IntArrayRef{a, b}` and
  /// `std::vector<int64_t>{a, b}` are meant to unwrap the same way, but their
  /// table rows failed and were taken out (session 18's closing note).
  static std::optional<std::vector<const Expr *>> listItems(const Expr *E) {
    for (int Depth = 0; E && Depth < 12; ++Depth) {
      E = E->IgnoreImplicit()->IgnoreParenCasts();
      if (const auto *Init = dyn_cast<InitListExpr>(E))
        return std::vector<const Expr *>(Init->inits().begin(), Init->inits().end());
      if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(E))
        E = List->getSubExpr();
      else if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
        E = Temporary->getSubExpr();
      else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
               Construct && Construct->getNumArgs() >= 1)
        E = Construct->getArg(0);
      else
        return std::nullopt;
    }
    return std::nullopt;
  }

  /// `x.sizes() == IntArrayRef({a, b, c})` (CHECK_SHAPE), either way round:
  /// x's rank, and each dim what the list says (a size, a literal, an
  /// expression of sizes; a local count names the dim).
  bool shapeList(const Expr *L, const Expr *R, const std::string &At) {
    for (int Turn = 0; Turn < 2; ++Turn, std::swap(L, R)) {
      llvm::StringRef Method;
      const Expr *Object = methodObject(L, Method);
      std::optional<unsigned> Param =
          Object && Method == "sizes" ? tensorParam(Object) : std::nullopt;
      std::optional<std::vector<const Expr *>> Items = Param ? listItems(R) : std::nullopt;
      if (!Items)
        continue;
      ParamFacts &P = Params[*Param];
      if (!P.Rank) {
        P.Rank = static_cast<int64_t>(Items->size());
        P.RankAt = At;
      }
      for (size_t I = 0; I < Items->size(); ++I)
        listItem(SizeTerm{*Param, static_cast<int64_t>(I), ""}, (*Items)[I], At);
      return true;
    }
    return false;
  }

  void listItem(const SizeTerm &Slot, const Expr *Item, const std::string &At) {
    std::optional<DimExpr> E = dimExpr(Item);
    if (E && E->K == DimExpr::Size)
      return Equal.push_back({{Slot, E->Term}, At});
    if (E && E->K == DimExpr::Literal)
      return Fixed.push_back({Slot, E->Value, At});
    if (E && hasSize(*E)) {
      DimExpr Size;
      Size.K = DimExpr::Size;
      Size.Term = Slot;
      return Constraints.push_back({Size, *E, "==", At});
    }
    if (const VarDecl *Var = local(Item); Var && Var->getType()->isIntegerType())
      Aliases.push_back(SizeTerm{Slot.Param, Slot.Index, Var->getNameAsString()});
  }

  /// A `const` local initialised with a size names that dim.
  std::optional<SizeTerm> localSize(const VarDecl *Var) const {
    if (!Var->getType().isConstQualified() || !Var->getInit() || isa<ParmVarDecl>(Var))
      return std::nullopt;
    std::optional<SizeTerm> Term = sizeOf(Var->getInit());
    if (Term && Term->Alias.empty())
      Term->Alias = Var->getNameAsString();
    return Term;
  }

  std::optional<DimExpr> dimExpr(const Expr *E, unsigned Depth = 0) const {
    if (Depth > 16)
      return std::nullopt;
    DimExpr Out;
    if (std::optional<SizeTerm> Term = sizeOf(E)) {
      Out.K = DimExpr::Size;
      Out.Term = *Term;
      return Out;
    }
    if (std::optional<int64_t> Value = literal(E)) {
      Out.Value = *Value;
      return Out;
    }
    const auto *Binary = dyn_cast<BinaryOperator>(strip(E));
    if (!Binary || (!Binary->isMultiplicativeOp() && !Binary->isAdditiveOp()))
      return std::nullopt;
    std::optional<DimExpr> L = dimExpr(Binary->getLHS(), Depth + 1);
    std::optional<DimExpr> R = dimExpr(Binary->getRHS(), Depth + 1);
    if (!L || !R)
      return std::nullopt;
    Out.K = DimExpr::Binary;
    Out.Op = Binary->getOpcodeStr().str();
    Out.Left = std::make_shared<DimExpr>(std::move(*L));
    Out.Right = std::make_shared<DimExpr>(std::move(*R));
    return Out;
  }

  static bool hasSize(const DimExpr &E) {
    return E.K == DimExpr::Size ||
           (E.K == DimExpr::Binary && (hasSize(*E.Left) || hasSize(*E.Right)));
  }

  void setDtypes(unsigned Param, std::vector<std::string> Names, const std::string &At) {
    ParamFacts &P = Params[Param];
    // Both a dispatch and a check: what both accept, in the first's order.
    if (P.Dtypes)
      llvm::erase_if(*P.Dtypes,
                     [&](const std::string &N) { return !llvm::is_contained(Names, N); });
    else
      P.Dtypes = std::move(Names);
    P.DtypesAt = At;
  }

  void dispatch(const SwitchStmt &Switch) {
    std::optional<unsigned> Param = dtypeOf(Switch.getCond());
    if (!Param)
      return;
    std::vector<std::pair<SourceLocation, std::string>> Cases;
    for (const SwitchCase *Case = Switch.getSwitchCaseList(); Case;
         Case = Case->getNextSwitchCase())
      if (const auto *Labelled = dyn_cast<CaseStmt>(Case))
        if (std::optional<std::string> Name = dtypeConstant(Labelled->getLHS()))
          Cases.emplace_back(Labelled->getBeginLoc(), *Name);
    if (Cases.empty())
      return;
    // The list is built backwards; the spec lists the cases as written.
    std::vector<std::string> Names;
    for (auto It = Cases.rbegin(); It != Cases.rend(); ++It)
      if (!llvm::is_contained(Names, It->second))
        Names.push_back(It->second);
    setDtypes(*Param, std::move(Names), where(&Switch));
  }

  void require(const Expr *E, bool Negated, const std::string &At) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (!Negated && Binary->getOpcode() == BO_LAnd) {
        require(Binary->getLHS(), false, At);
        require(Binary->getRHS(), false, At);
        return;
      }
      if (!Negated && Binary->getOpcode() == BO_LOr)
        return dtypeAlternatives(Binary, At);
      if (Binary->isComparisonOp())
        return compare(Binary->getOpcode(), Binary->getLHS(), Binary->getRHS(), Negated, At);
    }
    if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(E); Call && Call->getNumArgs() == 2)
      if (std::optional<BinaryOperatorKind> Op = comparisonOf(Call->getOperator()))
        return compare(*Op, Call->getArg(0), Call->getArg(1), Negated, At);
    llvm::StringRef Method, Inner;
    const Expr *Object = Negated ? nullptr : methodObject(E, Method);
    if (!Object)
      return;
    if (Method == "is_same_size" || Method == "equals") {
      const auto *Call = cast<CXXMemberCallExpr>(strip(E));
      if (Call->getNumArgs() == 1)
        sameShape(Object, Call->getArg(0), Method == "equals", At);
      return;
    }
    if (const Expr *Tensor = methodObject(Object, Inner); Tensor && Inner == "device")
      Object = Tensor;
    std::optional<unsigned> Param = tensorParam(Object);
    if (!Param)
      return;
    if (Method == "is_contiguous" && Params[*Param].ContiguousAt.empty())
      Params[*Param].ContiguousAt = At;
    else if (Method == "is_cuda" && Params[*Param].CudaAt.empty())
      Params[*Param].CudaAt = At;
  }

  static std::optional<BinaryOperatorKind> comparisonOf(OverloadedOperatorKind Op) {
    switch (Op) {
    case OO_EqualEqual:
      return BO_EQ;
    case OO_ExclaimEqual:
      return BO_NE;
    default:
      return std::nullopt;
    }
  }

  /// `x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16`.
  void dtypeAlternatives(const BinaryOperator *Or, const std::string &At) {
    std::vector<const Expr *> Leaves, Work{Or};
    while (!Work.empty()) {
      const Expr *E = Work.back()->IgnoreParenImpCasts();
      Work.pop_back();
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_LOr) {
        Work.push_back(B->getRHS());
        Work.push_back(B->getLHS());
      } else {
        Leaves.push_back(E);
      }
    }
    std::optional<unsigned> Param;
    std::vector<std::string> Names;
    for (const Expr *Leaf : Leaves) {
      std::optional<std::pair<unsigned, std::string>> Is = dtypeEquals(Leaf);
      if (!Is || (Param && *Param != Is->first))
        return;
      Param = Is->first;
      if (!llvm::is_contained(Names, Is->second))
        Names.push_back(Is->second);
    }
    if (Param)
      setDtypes(*Param, std::move(Names), At);
  }

  /// `x.scalar_type() == <dtype constant>`, either way round.
  std::optional<std::pair<unsigned, std::string>> dtypeEquals(const Expr *E) const {
    const Expr *L = nullptr, *R = nullptr;
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_EQ)
      std::tie(L, R) = std::pair{B->getLHS(), B->getRHS()};
    else if (const auto *C = dyn_cast<CXXOperatorCallExpr>(E);
             C && C->getOperator() == OO_EqualEqual && C->getNumArgs() == 2)
      std::tie(L, R) = std::pair{C->getArg(0), C->getArg(1)};
    if (!L)
      return std::nullopt;
    return dtypeIs(L, R);
  }

  /// One side the dtype of a tensor parameter, the other a dtype constant.
  std::optional<std::pair<unsigned, std::string>> dtypeIs(const Expr *L, const Expr *R) const {
    for (int Turn = 0; Turn < 2; ++Turn, std::swap(L, R))
      if (std::optional<unsigned> Param = dtypeOf(L))
        if (std::optional<std::string> Name = dtypeConstant(R))
          return std::pair{*Param, *Name};
    return std::nullopt;
  }

  static BinaryOperatorKind negate(BinaryOperatorKind Op) {
    switch (Op) {
    case BO_EQ:
      return BO_NE;
    case BO_NE:
      return BO_EQ;
    case BO_LT:
      return BO_GE;
    case BO_GE:
      return BO_LT;
    case BO_GT:
      return BO_LE;
    default:
      return BO_GT;
    }
  }

  void compare(BinaryOperatorKind Op, const Expr *L, const Expr *R, bool Negated,
               const std::string &At) {
    if (Negated)
      Op = negate(Op);
    if (Op == BO_EQ && dtypeSame(L, R, At))
      return;
    if (Op == BO_EQ && (sameShape(L, R, /*Sizes=*/true, At) || deviceIsCuda(L, R, At)))
      return;
    if (Op == BO_EQ)
      if (std::optional<std::pair<unsigned, std::string>> Is = dtypeIs(L, R))
        return setDtypes(Is->first, {Is->second}, At);
    if (Op == BO_EQ && rank(L, R, At))
      return;
    if (Op == BO_EQ && shapeList(L, R, At))
      return;
    if (leastRank(Op, L, R, At))
      return;
    std::optional<DimExpr> A = dimExpr(L), B = dimExpr(R);
    if (!A || !B || (!hasSize(*A) && !hasSize(*B)))
      return;
    if (Op == BO_EQ && A->K == DimExpr::Size && B->K == DimExpr::Size)
      return Equal.push_back({{A->Term, B->Term}, At});
    if (Op == BO_EQ && (A->K == DimExpr::Size) != (B->K == DimExpr::Size) &&
        (A->K == DimExpr::Literal || B->K == DimExpr::Literal)) {
      const DimExpr &Size = A->K == DimExpr::Size ? *A : *B;
      const DimExpr &Value = A->K == DimExpr::Size ? *B : *A;
      return Fixed.push_back({Size.Term, Value.Value, At});
    }
    Constraints.push_back({*A, *B, BinaryOperator::getOpcodeStr(Op).str(), At});
  }

  bool dtypeSame(const Expr *L, const Expr *R, const std::string &At) {
    std::optional<unsigned> A = dtypeOf(L), B = dtypeOf(R);
    if (!A || !B || *A == *B)
      return false;
    SameDtype.emplace_back(*A, *B);
    for (unsigned Param : {*A, *B})
      if (Params[Param].SameDtypeAt.empty())
        Params[Param].SameDtypeAt = At;
    return true;
  }

  /// Two whole shapes compared: `a.sizes()` with `b.sizes()` (`Sizes`), or
  /// the tensors themselves (`a.is_same_size(b)`).
  bool sameShape(const Expr *L, const Expr *R, bool Sizes, const std::string &At) {
    if (Sizes) {
      L = sizesObject(L);
      R = sizesObject(R);
    }
    std::optional<unsigned> A = L ? tensorParam(L) : std::nullopt;
    std::optional<unsigned> B = R ? tensorParam(R) : std::nullopt;
    if (!A || !B || *A == *B)
      return false;
    SameShape.push_back({*A, *B, At});
    return true;
  }

  /// `x.device().type() == at::kCUDA` (or `DeviceType::CUDA`), either way.
  bool deviceIsCuda(const Expr *L, const Expr *R, const std::string &At) {
    for (int Turn = 0; Turn < 2; ++Turn, std::swap(L, R)) {
      llvm::StringRef Method, Inner;
      const Expr *Device = methodObject(L, Method);
      const Expr *Tensor = Device && Method == "type" ? methodObject(Device, Inner) : nullptr;
      std::optional<unsigned> Param =
          Tensor && Inner == "device" ? tensorParam(Tensor) : std::nullopt;
      const auto *Ref = dyn_cast<DeclRefExpr>(strip(R));
      llvm::StringRef Name =
          Ref && Ref->getDecl()->getIdentifier() ? Ref->getDecl()->getName() : "";
      if (Param && (Name == "CUDA" || Name == "kCUDA")) {
        if (Params[*Param].CudaAt.empty())
          Params[*Param].CudaAt = At;
        return true;
      }
    }
    return false;
  }

  bool rank(const Expr *L, const Expr *R, const std::string &At) {
    for (int Turn = 0; Turn < 2; ++Turn, std::swap(L, R))
      if (std::optional<unsigned> Param = rankOf(L))
        if (std::optional<int64_t> Value = literal(R); Value && *Value >= 0) {
          if (!Params[*Param].Rank) {
            Params[*Param].Rank = *Value;
            Params[*Param].RankAt = At;
          }
          return true;
        }
    return false;
  }

  /// `x.dim() >= k`, `x.dim() > k`, and the same written the other way.
  bool leastRank(BinaryOperatorKind Op, const Expr *L, const Expr *R, const std::string &At) {
    std::optional<unsigned> Param = rankOf(L);
    std::optional<int64_t> Value = literal(R);
    if (!Param) { // `k <= x.dim()` is `x.dim() >= k`.
      Param = rankOf(R);
      Value = literal(L);
      Op = Op == BO_LE ? BO_GE : Op == BO_LT ? BO_GT : BO_EQ;
    }
    if (!Param || !Value || (Op != BO_GE && Op != BO_GT))
      return false;
    int64_t Least = *Value + (Op == BO_GT ? 1 : 0);
    ParamFacts &P = Params[*Param];
    if (!P.MinRank || Least > *P.MinRank) {
      P.MinRank = Least;
      P.MinRankAt = At;
    }
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Dims: once every rank is known.
  //===--------------------------------------------------------------------===//

  using Slot = std::pair<unsigned, int64_t>;

  /// The slot a size names: its index from the front where the rank is
  /// known, else as written (a negative one counts from the end); none for
  /// an index the rank does not have.
  std::optional<Slot> slot(const SizeTerm &Term) const {
    std::optional<int64_t> Rank = Params[Term.Param].Rank;
    int64_t Index = Term.Index;
    if (Index < 0 && Rank)
      Index += *Rank;
    if (Rank && (Index < 0 || Index >= *Rank))
      return std::nullopt;
    return Slot{Term.Param, Index};
  }

  Slot find(Slot S) {
    auto It = Parent.find(S);
    if (It == Parent.end() || It->second == S)
      return S;
    return It->second = find(It->second);
  }

  void unite(Slot A, Slot B) {
    A = find(A);
    B = find(B);
    if (A == B)
      return;
    // The smaller slot (earlier parameter, then earlier dim) stays the root.
    if (B < A)
      std::swap(A, B);
    Parent[B] = A;
    if (ClassSize.count(B) && !ClassSize.count(A))
      ClassSize[A] = ClassSize[B];
  }

  void reach(const SizeTerm &Term, const std::string &At) {
    if (Params[Term.Param].Rank)
      return;
    Reach &R = Reaches[Term.Param];
    if (Term.Index >= 0)
      R.Front = true;
    else
      R.Back = std::max(R.Back, -Term.Index);
    if (R.At.empty())
      R.At = At;
  }

  void reach(const DimExpr &E, const std::string &At) {
    if (E.K == DimExpr::Size)
      reach(E.Term, At);
    if (E.K == DimExpr::Binary) {
      reach(*E.Left, At);
      reach(*E.Right, At);
    }
  }

  /// A tensor whose shape is another's gets its rank; then their dims are
  /// equal one by one.
  void shareRanks() {
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (const SameShapePair &Pair : SameShape)
        for (auto [From, To] : {std::pair{Pair.A, Pair.B}, std::pair{Pair.B, Pair.A}})
          if (Params[From].Rank && !Params[To].Rank) {
            Params[To].Rank = Params[From].Rank;
            Params[To].RankAt = Pair.At;
            Grew = true;
          }
    }
    for (const SameShapePair &Pair : SameShape)
      if (Params[Pair.A].Rank && Params[Pair.A].Rank == Params[Pair.B].Rank)
        for (int64_t D = 0; D < *Params[Pair.A].Rank; ++D)
          Equal.push_back({{{Pair.A, D, ""}, {Pair.B, D, ""}}, Pair.At});
  }

  /// Without a rank, the dims either one's checks reach from the end are
  /// both's; with none, both are any shape, the same.
  void shareTrailingDims() {
    for (const SameShapePair &Pair : SameShape) {
      if (Params[Pair.A].Rank || Params[Pair.B].Rank)
        continue;
      int64_t Count = 0;
      for (unsigned Param : {Pair.A, Pair.B}) {
        auto It = Reaches.find(Param);
        Count = std::max(
            {Count, It == Reaches.end() ? 0 : It->second.Back, Params[Param].MinRank.value_or(0)});
      }
      for (int64_t K = 1; K <= Count; ++K) {
        SizeTerm A{Pair.A, -K, ""}, B{Pair.B, -K, ""};
        reach(A, Pair.At);
        reach(B, Pair.At);
        Equal.push_back({{A, B}, Pair.At});
      }
      if (Count == 0)
        for (unsigned Param : {Pair.A, Pair.B})
          if (Params[Param].AnyShapeAt.empty())
            Params[Param].AnyShapeAt = Pair.At;
    }
  }

  void applyDims() {
    shareRanks();
    for (const auto &[Pair, At] : Equal) {
      reach(Pair.A, At);
      reach(Pair.B, At);
    }
    for (const FixedSize &F : Fixed)
      reach(F.Term, F.At);
    for (const PendingConstraint &C : Constraints) {
      reach(C.Left, C.At);
      reach(C.Right, C.At);
    }
    shareTrailingDims();
    for (const auto &[Pair, At] : Equal)
      if (std::optional<Slot> A = slot(Pair.A))
        if (std::optional<Slot> B = slot(Pair.B))
          unite(*A, *B);
    for (const FixedSize &F : Fixed)
      if (std::optional<Slot> S = slot(F.Term); S && F.Value >= 0)
        ClassSize.try_emplace(find(*S), F.Value);
    for (const SizeTerm &Alias : Aliases)
      if (std::optional<Slot> S = slot(Alias))
        ClassName.try_emplace(find(*S), Alias.Alias);
    for (const PendingConstraint &C : Constraints) {
      std::optional<std::string> L = render(C.Left), R = render(C.Right);
      if (L && R)
        ConstraintTexts.emplace_back(*L + " " + C.Op + " " + *R, C.At);
    }
  }

  std::string dimName(Slot S) {
    Slot Root = find(S);
    if (auto It = ClassSize.find(Root); It != ClassSize.end())
      return std::to_string(It->second);
    if (auto It = ClassName.find(Root); It != ClassName.end())
      return It->second;
    const std::string &Param = Request.Signature->Params[Root.first].Name;
    if (Root.second == -1)
      return Param + "_last";
    if (Root.second < 0)
      return Param + "_last" + std::to_string(-Root.second);
    return Param + "_" + std::to_string(Root.second);
  }

  std::optional<std::string> render(const DimExpr &E) {
    if (E.K == DimExpr::Literal)
      return std::to_string(E.Value);
    if (E.K == DimExpr::Size) {
      std::optional<Slot> S = slot(E.Term);
      if (!S)
        return std::nullopt;
      return dimName(*S);
    }
    std::optional<std::string> L = render(*E.Left), R = render(*E.Right);
    if (!L || !R)
      return std::nullopt;
    auto Operand = [](const DimExpr &Side, const std::string &Text) {
      return Side.K == DimExpr::Binary ? "(" + Text + ")" : Text;
    };
    return Operand(*E.Left, *L) + " " + E.Op + " " + Operand(*E.Right, *R);
  }

  //===--------------------------------------------------------------------===//
  // The spec entry.
  //===--------------------------------------------------------------------===//

  /// The parameter whose dtype `Param`'s is: of those checked to have the
  /// same dtype, the first with dtypes of its own, else the first.
  unsigned dtypeAnchor(unsigned Param) const {
    std::set<unsigned> Class{Param};
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (auto [A, B] : SameDtype)
        if (Class.count(A) != Class.count(B)) {
          Class.insert({A, B});
          Grew = true;
        }
    }
    for (unsigned Member : Class)
      if (Params[Member].Dtypes && !Params[Member].Dtypes->empty())
        return Member;
    return *Class.begin();
  }

  /// A tensor of unknown rank: `["...", x_last2, x_last]`, as many dims as
  /// its checks reach from the end or its least rank asks for; none when a
  /// check indexes it from the front (the shape cannot say both).
  std::optional<Sourced<std::vector<std::string>>> trailingShape(unsigned Param) {
    const ParamFacts &P = Params[Param];
    auto It = Reaches.find(Param);
    if (It != Reaches.end() && It->second.Front)
      return std::nullopt;
    int64_t Back = It == Reaches.end() ? 0 : It->second.Back;
    int64_t Count = std::max(Back, P.MinRank.value_or(0));
    if (Count == 0)
      return std::nullopt;
    std::vector<std::string> Shape{LeadingDims};
    for (int64_t K = Count; K >= 1; --K)
      Shape.push_back(dimName({Param, -K}));
    return Sourced<std::vector<std::string>>::code(
        std::move(Shape), P.MinRankAt.empty() ? It->second.At : P.MinRankAt);
  }

  void fill(SpecOp &Op) {
    for (size_t I = 0; I < Op.Inputs.size() && I < Params.size(); ++I) {
      SpecInput &In = Op.Inputs[I];
      const ParamFacts &P = Params[I];
      if (!In.IsTensor)
        continue;
      if (P.Rank) {
        std::vector<std::string> Shape;
        for (int64_t D = 0; D < *P.Rank; ++D)
          Shape.push_back(dimName({static_cast<unsigned>(I), D}));
        In.Shape = Sourced<std::vector<std::string>>::code(std::move(Shape), P.RankAt);
      } else if (auto Trailing = trailingShape(static_cast<unsigned>(I))) {
        In.Shape = std::move(*Trailing);
      } else if (!P.AnyShapeAt.empty()) {
        In.Shape = Sourced<std::vector<std::string>>::code({LeadingDims}, P.AnyShapeAt);
      }
      if (P.Dtypes && !P.Dtypes->empty())
        In.Dtypes = Sourced<DtypeSet>::code({*P.Dtypes, ""}, P.DtypesAt);
      else if (unsigned Anchor = dtypeAnchor(I); Anchor != I)
        In.Dtypes = Sourced<DtypeSet>::code({{}, Op.Inputs[Anchor].Name}, P.SameDtypeAt);
      if (!P.ContiguousAt.empty())
        In.Contiguous = Sourced<bool>::code(true, P.ContiguousAt);
      if (!P.CudaAt.empty())
        In.Device = Sourced<std::string>::code("cuda", P.CudaAt);
    }
    for (const auto &[Text, At] : ConstraintTexts)
      if (llvm::none_of(Op.Constraints, [&](const auto &C) { return C.Value == Text; }))
        Op.Constraints.push_back(Sourced<std::string>::code(Text, At));
  }
};

std::vector<SpecOutput> outputsOf(const SpecRequest &Request) {
  const OpSignature &Sig = *Request.Signature;
  std::vector<SpecOutput> Outputs;
  for (unsigned I = 0; I < Sig.Returns.size(); ++I) {
    SpecOutput Result;
    Result.Result = I;
    if (I < Request.ReturnedParams.size() && Request.ReturnedParams[I])
      Result.Argument = Sig.Params[*Request.ReturnedParams[I]].Name;
    Outputs.push_back(std::move(Result));
  }
  for (const OpParam &Param : Sig.Params)
    if (Param.Mutable && isTensorSchemaType(Param.SchemaType)) {
      SpecOutput Written;
      Written.Argument = Param.Name;
      Outputs.push_back(std::move(Written));
    }
  return Outputs;
}

} // namespace

SpecOp deriveSpecOp(const SpecRequest &Request, ASTContext &Ctx) {
  const OpSignature &Sig = *Request.Signature;
  SpecOp Op;
  Op.Name = Sig.OpName;
  Op.Schema = Sig.Schema;
  for (const OpParam &Param : Sig.Params) {
    SpecInput In;
    In.Name = Param.Name;
    In.Type = Param.SchemaType;
    In.IsTensor = isTensorSchemaType(Param.SchemaType);
    Op.Inputs.push_back(std::move(In));
  }
  Op.Outputs = outputsOf(Request);
  Op.Tolerances = Sourced<std::map<std::string, Tolerance>>::byDefault(defaultTolerances());
  Deriver(Request, Ctx).run(Op);
  return Op;
}

} // namespace opmig::migrate
