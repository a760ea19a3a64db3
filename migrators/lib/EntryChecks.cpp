//===- EntryChecks.cpp - What an entry's body always checks ---------------===//

#include "EntryChecks.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/STLExtras.h"

#include <utility>

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

/// How many helpers deep checks are followed (`check_inputs` calling
/// `check_shape`): deeper is rarer than a recursion.
constexpr unsigned MaxHelperDepth = 4;

class Collector {
public:
  Collector(EntryChecks &Out, const FollowCall &Follow) : Out(Out), Follow(Follow) {}

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
      Out.Switches.push_back({Switch, Frame});
    } else if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          Out.Locals.push_back({Var, Frame});
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
  const FollowCall &Follow;
  std::vector<const FunctionDecl *> Helpers; ///< Being followed, outermost first.
  const CallFrame *Frame = nullptr;          ///< The innermost of them.

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
      Out.Requirements.push_back({Not->getSubExpr()->IgnoreParenImpCasts(), false, &If, Frame});
    else
      Out.Requirements.push_back({Cond, true, &If, Frame});
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
        Call && Call->getOperator() == OO_Call && Call->getNumArgs() >= 1) {
      if (const auto *Lambda = dyn_cast<LambdaExpr>(Call->getArg(0)->IgnoreImplicit())) {
        statement(Lambda->getBody());
        for (unsigned I = 1; I < Call->getNumArgs(); ++I)
          calledLambdas(Call->getArg(I));
        return;
      }
      if (const LambdaExpr *Named = namedLambda(Call->getArg(0)))
        return follow(*Named->getCallOperator(), *Call, /*FirstArgument=*/1);
    }
    for (const Stmt *Child : S->children())
      calledLambdas(Child);
    if (const auto *Call = dyn_cast<CallExpr>(S))
      helper(*Call);
  }

  /// The lambda a local of the body holds (`auto check = [&](...) {...};`).
  static const LambdaExpr *namedLambda(const Expr *Callee) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Callee->IgnoreImplicit()->IgnoreParenCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || !Var->getInit())
      return nullptr;
    return dyn_cast<LambdaExpr>(Var->getInit()->IgnoreImplicit());
  }

  /// A free function of the tree's own, called with the statement.
  void helper(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    const FunctionDecl *Definition = nullptr;
    if (Follow && Callee && !isa<CXXMethodDecl>(Callee) && Callee->hasBody(Definition))
      follow(*Definition, Call, 0);
  }

  /// The checks of a called helper or lambda are the caller's: its
  /// parameters are bound to the call's arguments from `FirstArgument` on.
  void follow(const FunctionDecl &Definition, const CallExpr &Call, unsigned FirstArgument) {
    if (!Follow || Helpers.size() >= MaxHelperDepth || llvm::is_contained(Helpers, &Definition) ||
        !Follow(Definition) || !Definition.hasBody())
      return;
    CallFrame &Callee = Out.Frames.emplace_back();
    Callee.Caller = Frame;
    for (unsigned I = 0; I < Definition.getNumParams() && FirstArgument + I < Call.getNumArgs();
         ++I)
      Callee.Arguments[Definition.getParamDecl(I)] = Call.getArg(FirstArgument + I);
    Helpers.push_back(&Definition);
    const CallFrame *Outer = std::exchange(Frame, &Callee);
    statement(Definition.getBody());
    Frame = Outer;
    Helpers.pop_back();
  }
};

} // namespace

EntryChecks findEntryChecks(const FunctionDecl &Function, const FollowCall &Follow) {
  EntryChecks Out;
  if (Function.hasBody())
    Collector(Out, Follow).statement(Function.getBody());
  return Out;
}

} // namespace opmig::migrate
