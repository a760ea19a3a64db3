//===- LocalWrites.h - Where a function body may change a variable -*- C++ -*-===//
//
// A fake may only mirror an allocation if nothing changes the allocated
// tensor (or a size it was computed from) afterwards. This finds every place
// in a body, lambdas included, that may: assignments, increments, taking the
// address, non-const methods and shape-changing in-place ops (which are
// `const` in ATen), binding to a non-const reference, and passing it by
// non-const reference to a function whose visible body changes it (or whose
// body is not visible; `std::make_tuple`, `std::tie` and the like only
// forward it).
//
//   at::Tensor out;                     // default-constructed
//   out = at::empty_like(x);            // write 1: assigned `at::empty_like(x)`
//   out.resize_({n});                   // write 2: changed by `resize_`
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_LOCALWRITES_H
#define OPMIG_MIGRATE_LIB_LOCALWRITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace opmig::migrate {

struct VariableWrite {
  const clang::Stmt *Site = nullptr;
  /// The assigned value for a plain assignment `v = e`; null otherwise.
  const clang::Expr *AssignedValue = nullptr;
  std::string What;        ///< e.g. `reassigned`, `changed by \`resize_\``.
  bool Assignment = false; ///< `v = e` or `v op= e`: the handle itself changes.
};

/// The writes of `Var` inside `Body`, in source order.
std::vector<VariableWrite> findWrites(const clang::VarDecl &Var, const clang::Stmt &Body);

/// The first assignment of `Var` inside `Body` (`x = x.reshape(...)`), from
/// which on it no longer holds what it was initialised or called with; null
/// when there is none.
const clang::Stmt *firstAssignment(const clang::VarDecl &Var, const clang::Stmt &Body);

} // namespace opmig::migrate

#endif
