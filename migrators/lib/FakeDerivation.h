//===- FakeDerivation.h - Fake/meta kernel from an op's host body -*- C++ -*-===//
//
// Follows what an op's host function returns back to the allocations that
// made it, and spells those allocations in Python (for `register_fake`) and
// C++ (for a Meta kernel) over the op's parameter names:
//
//   at::Tensor out = at::empty_like(v_a);      Python: (torch.empty_like(v_a),
//   const int64_t t = v_a.size(0);                      torch.empty((v_a.shape[0],),
//   at::Tensor l = at::empty({t},                         dtype=lse_a.dtype,
//                            lse_a.options());             device=lse_a.device))
//   return {out, l};                           C++:    return {at::empty_like(v_a),
//                                                              at::empty({v_a.size(0)},
//                                                                        lse_a.options())};
//
// Only shapes evident from the code are derived: allocations (`empty`,
// `zeros`, `ones`, their `_like` and `new_` forms) whose sizes are literals,
// input sizes, integer parameters or products of those, with options from an
// input, a dtype constant or a dtype parameter; and mutable parameters
// returned as they are. Anything else yields a reason, never a guess.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_FAKEDERIVATION_H
#define OPMIG_MIGRATE_LIB_FAKEDERIVATION_H

#include "SchemaTypes.h"
#include "opmig/migrate/OpSignature.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

struct FakeInput {
  const clang::FunctionDecl *Function = nullptr; ///< The definition.
  std::string OpName;                            ///< For reasons.
  std::vector<OpParam> Params;                   ///< Names used in the fake.
  ReturnTypes Returns;
};

struct FakeResult {
  bool Derived = false;
  std::string Reason; ///< Why not derived; empty when derived.
  std::string Python; ///< `None` for a `void` op.
  std::string Cpp;    ///< Meta kernel body; empty for a `void` op.
  /// Per result: the mutable parameter that every return statement returns
  /// there, if any (it aliases that parameter in the schema).
  std::vector<std::optional<unsigned>> ReturnedParams;
};

FakeResult deriveFake(const FakeInput &Input, clang::ASTContext &Ctx);

} // namespace opmig::migrate

#endif
