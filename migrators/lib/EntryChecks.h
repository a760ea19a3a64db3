//===- EntryChecks.h - What an entry's body always checks -------*- C++ -*-===//
//
// The statements of a host function that run on every call, and among them
// the checks and dtype dispatches, on the macro-expanded AST:
//
//   TORCH_CHECK(x.dim() == 2, "...");       if (!(x.dim() == 2)) { fail(...); }
//                                             -> requirement `x.dim() == 2`
//   if (n != 4) throw std::invalid_argument(..);  -> requirement `!(n != 4)`
//   AT_DISPATCH_SWITCH(x.scalar_type(), ...)  [&] { ...; switch (_st) {...} }()
//                                             -> dispatch switch
//   if (flag) { TORCH_CHECK(x.dim() == 3); }  -> nothing: not always run
//
// Always run: the body's statements, and those of blocks, of `do { } while
// (false)` and of lambdas called where they are written, but not what sits
// in an `if`'s branches, a loop or a `switch`. A check is an `if` without
// `else` whose branch throws or calls a `[[noreturn]]` function.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_ENTRYCHECKS_H
#define OPMIG_MIGRATE_LIB_ENTRYCHECKS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace opmig::migrate {

/// What a check requires: `Condition`, or its negation when `Negated`
/// (`if (a != b) throw` requires `!(a != b)`).
struct Requirement {
  const clang::Expr *Condition = nullptr;
  bool Negated = false;
  const clang::Stmt *Check = nullptr; ///< The `if`, for its location.
};

struct EntryChecks {
  std::vector<Requirement> Requirements;
  /// Switches that always run (a dtype dispatch is one).
  std::vector<const clang::SwitchStmt *> Switches;
  /// Locals declared by statements that always run.
  std::vector<const clang::VarDecl *> Locals;
};

/// The checks of `Function`'s body, in source order; none without a body.
EntryChecks findEntryChecks(const clang::FunctionDecl &Function);

} // namespace opmig::migrate

#endif
