//===- EntryChecks.cpp - What an entry's body always checks ---------------===//

#include "EntryChecks.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// Whether `S` throws or calls a `[[noreturn]]` function on every path
/// through its top level (the branch of `TORCH_CHECK`).
bool fails(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(Block->body(), fails);
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (isa<CXXThrowExpr>(E))
    return true;
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->isNoReturn();
}

/// `__builtin_expect(static_cast<bool>(X), 0)` (C10_UNLIKELY) is `X`.
const Expr *withoutExpect(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (Call->getBuiltinCallee() == Builtin::BI__builtin_expect && Call->getNumArgs() == 2)
      return Call->getArg(0)->IgnoreParenCasts();
  return E;
}

class Collector {
public:
  explicit Collector(EntryChecks &Out) : Out(Out) {}

  void statement(const Stmt *S) {
    if (!S)
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Block->body())
        statement(Child);
    } else if (const auto *Do = dyn_cast<DoStmt>(S)) {
      if (isFalse(Do->getCond()))
        statement(Do->getBody());
    } else if (const auto *If = dyn_cast<IfStmt>(S)) {
      check(*If);
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(S)) {
      Out.Switches.push_back(Switch);
    } else if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          Out.Locals.push_back(Var);
          if (Var->getInit())
            calledLambdas(Var->getInit());
        }
    } else if (const auto *E = dyn_cast<Expr>(S)) {
      calledLambdas(E);
    } else if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      if (Return->getRetValue())
        calledLambdas(Return->getRetValue());
    }
  }

private:
  EntryChecks &Out;

  bool isFalse(const Expr *Cond) const {
    const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(Cond->IgnoreParenImpCasts());
    const auto *Zero = dyn_cast<IntegerLiteral>(Cond->IgnoreParenImpCasts());
    return (Literal && !Literal->getValue()) || (Zero && Zero->getValue() == 0);
  }

  void check(const IfStmt &If) {
    if (If.getElse() || If.hasInitStorage() || If.hasVarStorage() || !fails(If.getThen()))
      return;
    const Expr *Cond = withoutExpect(If.getCond());
    if (const auto *Not = dyn_cast<UnaryOperator>(Cond); Not && Not->getOpcode() == UO_LNot)
      Out.Requirements.push_back({Not->getSubExpr()->IgnoreParenImpCasts(), false, &If});
    else
      Out.Requirements.push_back({Cond, true, &If});
  }

  /// Lambdas called where they are written (`[&] { ... }()`, the shape of
  /// every dtype dispatch macro) run with the statement; other lambdas,
  /// and the arms of `?:`, `&&` and `||`, may not run.
  void calledLambdas(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S) || isa<ConditionalOperator>(S))
      return;
    if (const auto *Logical = dyn_cast<BinaryOperator>(S); Logical && Logical->isLogicalOp())
      return calledLambdas(Logical->getLHS());
    if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
        Call && Call->getOperator() == OO_Call && Call->getNumArgs() >= 1)
      if (const auto *Lambda = dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit())) {
        statement(Lambda->getBody());
        for (unsigned I = 1; I < Call->getNumArgs(); ++I)
          calledLambdas(Call->getArg(I));
        return;
      }
    for (const Stmt *Child : S->children())
      calledLambdas(Child);
  }
};

} // namespace

EntryChecks findEntryChecks(const FunctionDecl &Function) {
  EntryChecks Out;
  if (Function.hasBody())
    Collector(Out).statement(Function.getBody());
  return Out;
}

} // namespace opmig::migrate
