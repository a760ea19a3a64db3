#include "LocalWrites.h"

#include "SchemaTypes.h"

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// How deep calls that take the variable by non-const reference are
/// followed into their bodies before the call itself counts as a write.
constexpr unsigned MaxCallDepth = 3;

/// In-place ops that change a tensor's shape; ATen declares them `const`.
bool isShapeChanging(llvm::StringRef Method) {
  return llvm::is_contained({"resize_", "resize_as_", "set_", "as_strided_", "squeeze_",
                             "unsqueeze_", "transpose_", "t_", "swapdims_", "swapaxes_"},
                            Method);
}

/// Standard functions that forward or wrap their arguments without
/// changing them (their parameters are forwarding references).
bool onlyForwards(const FunctionDecl &Callee) {
  return llvm::is_contained({"std::make_tuple", "std::forward_as_tuple", "std::tie", "std::forward",
                             "std::move", "std::make_pair", "std::ref", "std::cref"},
                            qualifiedName(Callee));
}

bool isNonConstLValueRef(QualType Type) {
  const auto *Ref = Type->getAs<LValueReferenceType>();
  return Ref && !Ref->getPointeeType().getCanonicalType().isConstQualified();
}

class WriteFinder : public ConstDynamicRecursiveASTVisitor {
public:
  WriteFinder(const VarDecl &Var, unsigned Depth) : Var(Var), Depth(Depth) {}

  bool VisitBinaryOperator(const BinaryOperator *Op) override {
    if (Op->isAssignmentOp() && refersToVar(Op->getLHS())) {
      bool Plain = Op->getOpcode() == BO_Assign;
      add(Op, Plain ? Op->getRHS() : nullptr, Plain ? "reassigned" : "updated", true);
    }
    return true;
  }

  bool VisitUnaryOperator(const UnaryOperator *Op) override {
    if (!refersToVar(Op->getSubExpr()))
      return true;
    if (Op->isIncrementDecrementOp())
      add(Op, nullptr, "incremented or decremented");
    else if (Op->getOpcode() == UO_AddrOf)
      add(Op, nullptr, "taken by address");
    return true;
  }

  bool VisitCXXOperatorCallExpr(const CXXOperatorCallExpr *Call) override {
    if (!Call->isAssignmentOp() || Call->getNumArgs() != 2 || !refersToVar(Call->getArg(0)))
      return true;
    bool Plain = Call->getOperator() == OO_Equal;
    add(Call, Plain ? Call->getArg(1) : nullptr, Plain ? "reassigned" : "updated", true);
    return true;
  }

  bool VisitCXXMemberCallExpr(const CXXMemberCallExpr *Call) override {
    const CXXMethodDecl *Method = Call->getMethodDecl();
    if (!Method || !refersToVar(Call->getImplicitObjectArgument()))
      return true;
    if (!Method->isConst() || isShapeChanging(Method->getNameAsString()))
      add(Call, nullptr, "changed by `" + Method->getNameAsString() + "`");
    return true;
  }

  bool VisitCallExpr(const CallExpr *Call) override {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    // A member operator's object is its first argument, not a parameter.
    unsigned Skip = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    for (unsigned I = Skip; I < Call->getNumArgs() && I - Skip < Callee->getNumParams(); ++I)
      checkArgument(Call, *Callee, I - Skip, Call->getArg(I));
    return true;
  }

  bool VisitCXXConstructExpr(const CXXConstructExpr *Construct) override {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && I < Ctor->getNumParams(); ++I)
      checkArgument(Construct, *Ctor, I, Construct->getArg(I));
    return true;
  }

  bool VisitVarDecl(const VarDecl *Decl) override {
    if (Decl->getInit() && isNonConstLValueRef(Decl->getType()) && refersToVar(Decl->getInit()))
      add(Decl->getInit(), nullptr,
          "bound to the non-const reference `" + Decl->getNameAsString() + "`");
    return true;
  }

  std::vector<VariableWrite> Writes;

private:
  bool refersToVar(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == &Var;
  }

  void add(const Stmt *Site, const Expr *Value, std::string What, bool Assignment = false) {
    Writes.push_back({Site, Value, std::move(What), Assignment});
  }

  /// A non-const reference parameter is a write unless the callee's body is
  /// visible and leaves that parameter alone.
  void checkArgument(const Expr *Site, const FunctionDecl &Callee, unsigned Param,
                     const Expr *Arg) {
    if (!refersToVar(Arg) || !isNonConstLValueRef(Callee.getParamDecl(Param)->getType()) ||
        onlyForwards(Callee))
      return;
    std::string Name = Callee.getQualifiedNameAsString();
    const FunctionDecl *Definition = nullptr;
    if (Depth >= MaxCallDepth || !Callee.hasBody(Definition) || !Definition->getBody()) {
      add(Site, nullptr, "passed by non-const reference to `" + Name + "`");
      return;
    }
    WriteFinder Inner(*Definition->getParamDecl(Param), Depth + 1);
    Inner.TraverseStmt(Definition->getBody());
    if (!Inner.Writes.empty())
      add(Site, nullptr, "passed by non-const reference to `" + Name + "`, which changes it");
  }

  const VarDecl &Var;
  unsigned Depth;
};

} // namespace

std::vector<VariableWrite> findWrites(const VarDecl &Var, const Stmt &Body) {
  WriteFinder Finder(Var, /*Depth=*/0);
  Finder.TraverseStmt(&Body);
  return std::move(Finder.Writes);
}

const Stmt *firstAssignment(const VarDecl &Var, const Stmt &Body) {
  for (const VariableWrite &W : findWrites(Var, Body))
    if (W.Assignment)
      return W.Site;
  return nullptr;
}

} // namespace opmig::migrate
