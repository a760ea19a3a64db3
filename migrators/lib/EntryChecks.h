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
// (false)`, of lambdas called where they are written and of the functions
// called from them that the caller says to follow (the tree's own helpers,
// `check_inputs(x, out)`), but not what sits in an `if`'s branches, a loop
// or a `switch`. A check is an `if` without `else` whose branch throws or
// calls a `[[noreturn]]` function.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_ENTRYCHECKS_H
#define OPMIG_MIGRATE_LIB_ENTRYCHECKS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <deque>
#include <functional>
#include <map>
#include <vector>

namespace opmig::migrate {

/// A call of a helper (or lambda) whose checks were followed: its
/// parameters bound to the call's arguments, which are in the terms of the
/// caller's frame (none: the entry's own body).
struct CallFrame {
  std::map<const clang::ParmVarDecl *, const clang::Expr *> Arguments;
  const CallFrame *Caller = nullptr;
};

/// What a check requires: `Condition`, or its negation when `Negated`
/// (`if (a != b) throw` requires `!(a != b)`).
struct Requirement {
  const clang::Expr *Condition = nullptr;
  bool Negated = false;
  const clang::Stmt *Check = nullptr; ///< The `if`, for its location.
  const CallFrame *Frame = nullptr;   ///< Where it was written; none: the entry.
};

/// A statement of a body that always runs, with the call it ran in.
template <typename T> struct InFrame {
  const T *Node = nullptr;
  const CallFrame *Frame = nullptr;
};

struct EntryChecks {
  std::vector<Requirement> Requirements;
  /// Switches that always run (a dtype dispatch is one).
  std::vector<InFrame<clang::SwitchStmt>> Switches;
  /// Locals declared by statements that always run.
  std::vector<InFrame<clang::VarDecl>> Locals;
  /// The calls followed; the frames above point into it.
  std::deque<CallFrame> Frames;
};

/// Whether the checks of a called function's definition are followed.
using FollowCall = std::function<bool(const clang::FunctionDecl &Definition)>;

/// The checks of `Function`'s body, in source order; none without a body.
/// Calls of functions `Follow` accepts are followed into, a few levels deep.
EntryChecks findEntryChecks(const clang::FunctionDecl &Function, const FollowCall &Follow = {});

} // namespace opmig::migrate

#endif
