//===- PointerFieldWrites.cpp - Pointer fields code writes through --------===//

#include "PointerFieldWrites.h"

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

#include <functional>
#include <vector>

using namespace clang;

namespace opmig::analyze {

namespace {

constexpr unsigned MaxCallDepth = 6;

/// Where a pointer may come from: field USRs, or `#N` for parameter N of a
/// callee being followed.
using Origins = std::set<std::string>;

std::string parameterLabel(unsigned Index) { return "#" + std::to_string(Index); }

bool isPointerToNonConst(QualType Type) {
  const auto *Pointer = Type.getNonReferenceType()->getAs<PointerType>();
  return Pointer && !Pointer->getPointeeType().isConstQualified();
}

std::string usrOf(const Decl &D) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(&D, Usr))
    return "";
  return std::string(Usr);
}

} // namespace

/// What followed callees write: parameter indices, by callee.
struct PointerFieldWrites::Memo {
  std::map<const FunctionDecl *, std::set<unsigned>> Written;
  std::vector<const FunctionDecl *> Active;
};

namespace {

class WriteFinder : public ConstDynamicRecursiveASTVisitor {
public:
  using WrittenParams = std::function<std::set<unsigned>(const FunctionDecl &, unsigned Depth)>;

  WriteFinder(unsigned Depth, WrittenParams Follow) : Depth(Depth), Follow(std::move(Follow)) {}

  /// Parameter `Index` is followed: writes through it are reported as `#Index`.
  void seed(const ParmVarDecl &Param, unsigned Index) {
    Locals[&Param].insert(parameterLabel(Index));
  }

  bool VisitVarDecl(const VarDecl *Var) override {
    if (const Expr *Init = Var->getInit(); Init && Var->getType()->isPointerType())
      addOrigins(Var, originsOf(Init));
    return true;
  }

  bool VisitBinaryOperator(const BinaryOperator *Op) override {
    if (Op->getOpcode() == BO_Assign)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Op->getLHS()->IgnoreParenImpCasts()))
        if (Ref->getType()->isPointerType())
          addOrigins(Ref->getDecl(), originsOf(Op->getRHS()));
    if (Op->isAssignmentOp())
      checkStore(Op->getLHS());
    return true;
  }

  bool VisitUnaryOperator(const UnaryOperator *Op) override {
    if (Op->isIncrementDecrementOp())
      checkStore(Op->getSubExpr());
    return true;
  }

  /// Stores into class-typed elements (`__half`, `float4`) are operator calls.
  bool VisitCXXOperatorCallExpr(const CXXOperatorCallExpr *Call) override {
    OverloadedOperatorKind Kind = Call->getOperator();
    if (Call->getNumArgs() > 0 &&
        (Call->isAssignmentOp() || Kind == OO_PlusPlus || Kind == OO_MinusMinus))
      checkStore(Call->getArg(0));
    return true;
  }

  bool VisitCallExpr(const CallExpr *Call) override {
    if (Call->isTypeDependent() || Call->getCallee()->isTypeDependent())
      return true; // the instantiations say which callee it is
    const FunctionDecl *Callee = Call->getDirectCallee();
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && Method && Method->isInstance() ? 1 : 0;
    std::vector<QualType> Params = paramTypes(*Call, Callee);
    std::set<unsigned> Followed;
    bool Visible = Callee && Callee->hasBody() && Depth < MaxCallDepth;
    if (Visible)
      Followed = Follow(*Callee, Depth + 1);
    for (unsigned I = Skip; I < Call->getNumArgs() && I - Skip < Params.size(); ++I) {
      if (!isPointerToNonConst(Params[I - Skip]))
        continue;
      if (!Visible || Followed.count(I - Skip))
        markWritten(originsOf(Call->getArg(I)));
    }
    return true;
  }

  /// A constructor may keep the pointer and write through it later.
  bool VisitCXXConstructExpr(const CXXConstructExpr *Construct) override {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      if (isPointerToNonConst(Ctor->getParamDecl(I)->getType()))
        markWritten(originsOf(Construct->getArg(I)));
    return true;
  }

  Origins Written;

private:
  /// The fields (or followed parameters) pointer `E` may be read from.
  Origins originsOf(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E))
      return originsOf(Cast->getSubExpr());
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      if (!Op->isAdditiveOp())
        return {};
      return originsOf(Op->getLHS()->getType()->isPointerType() ? Op->getLHS() : Op->getRHS());
    }
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E)) {
      Origins Both = originsOf(Cond->getTrueExpr());
      Both.merge(originsOf(Cond->getFalseExpr()));
      return Both;
    }
    if (const auto *Op = dyn_cast<UnaryOperator>(E); Op && Op->getOpcode() == UO_AddrOf)
      if (const auto *Element = dyn_cast<ArraySubscriptExpr>(Op->getSubExpr()->IgnoreParens()))
        return originsOf(Element->getBase());
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field || !Field->getType()->isPointerType())
        return {};
      std::string Usr = usrOf(*Field);
      return Usr.empty() ? Origins() : Origins{Usr};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (auto It = Locals.find(Ref->getDecl()); It != Locals.end())
        return It->second;
    return {};
  }

  /// `p[i] = v`, `*p = v`, `p->x = v`, `p[i].x = v`.
  void checkStore(const Expr *Target) {
    const Expr *E = Target->IgnoreParenImpCasts();
    while (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow())
        return markWritten(originsOf(Member->getBase()));
      E = Member->getBase()->IgnoreParenImpCasts();
    }
    if (const auto *Element = dyn_cast<ArraySubscriptExpr>(E))
      markWritten(originsOf(Element->getBase()));
    else if (const auto *Deref = dyn_cast<UnaryOperator>(E);
             Deref && Deref->getOpcode() == UO_Deref)
      markWritten(originsOf(Deref->getSubExpr()));
  }

  std::vector<QualType> paramTypes(const CallExpr &Call, const FunctionDecl *Callee) const {
    std::vector<QualType> Types;
    if (Callee) {
      for (const ParmVarDecl *Param : Callee->parameters())
        Types.push_back(Param->getType());
      return Types;
    }
    QualType Type = Call.getCallee()->getType();
    if (const auto *Pointer = Type->getAs<PointerType>())
      Type = Pointer->getPointeeType();
    if (const auto *Proto = Type->getAs<FunctionProtoType>())
      Types.assign(Proto->param_type_begin(), Proto->param_type_end());
    return Types;
  }

  void addOrigins(const Decl *Var, Origins From) {
    if (!From.empty())
      Locals[Var].merge(From);
  }
  void markWritten(const Origins &From) { Written.insert(From.begin(), From.end()); }

  unsigned Depth;
  WrittenParams Follow;
  std::map<const Decl *, Origins> Locals;
};

Origins findWrites(const FunctionDecl &Definition, unsigned Depth,
                   const WriteFinder::WrittenParams &Follow, bool SeedParams) {
  WriteFinder Finder(Depth, Follow);
  if (SeedParams)
    for (unsigned I = 0; I < Definition.getNumParams(); ++I)
      if (isPointerToNonConst(Definition.getParamDecl(I)->getType()))
        Finder.seed(*Definition.getParamDecl(I), I);
  Finder.TraverseStmt(Definition.getBody());
  return std::move(Finder.Written);
}

} // namespace

PointerFieldWrites::PointerFieldWrites() : Callees(std::make_unique<Memo>()) {}
PointerFieldWrites::~PointerFieldWrites() = default;

void PointerFieldWrites::collect(const FunctionDecl &Function, std::set<std::string> &Fields) {
  if (!Function.doesThisDeclarationHaveABody())
    return;
  WriteFinder::WrittenParams Follow = [this, &Follow](const FunctionDecl &Callee,
                                                      unsigned Depth) -> std::set<unsigned> {
    const FunctionDecl *Definition = nullptr;
    if (!Callee.hasBody(Definition))
      return {};
    if (auto It = Callees->Written.find(Definition); It != Callees->Written.end())
      return It->second;
    if (llvm::is_contained(Callees->Active, Definition))
      return {}; // a cycle writes nothing the rest of it does not
    Callees->Active.push_back(Definition);
    std::set<unsigned> Params;
    for (const std::string &Label : findWrites(*Definition, Depth, Follow, /*SeedParams=*/true))
      if (Label.front() == '#')
        Params.insert(std::stoul(Label.substr(1)));
    Callees->Active.pop_back();
    return Callees->Written[Definition] = Params;
  };
  for (const std::string &Label : findWrites(Function, 0, Follow, /*SeedParams=*/false))
    if (Label.front() != '#')
      Fields.insert(Label);
}

} // namespace opmig::analyze
