//===- SpecDerivation.h - An op's starting validation spec ------*- C++ -*-===//
//
// Fills an op's entry of the validation spec (support/ValidationSpec.h) as
// far as its signature and host body tell, on the macro-expanded AST:
//
//   at::Tensor f(const at::Tensor &x,         x: dtypes [float16, bfloat16]
//                const at::Tensor &w) {          shape [x_0, x_1], contiguous,
//     TORCH_CHECK(x.dim() == 2, "...");          device cuda
//     TORCH_CHECK(x.is_contiguous());          w: shape [x_1]
//     TORCH_CHECK(x.is_cuda());                constraints: x_1 % 8 == 0
//     TORCH_CHECK(w.dim() == 1);               outputs: result 0
//     TORCH_CHECK(w.size(0) == x.size(1));
//     TORCH_CHECK(x.size(-1) % 8 == 0);
//     AT_DISPATCH_SWITCH(x.scalar_type(), "f",
//         AT_DISPATCH_CASE(at::kHalf, ...) AT_DISPATCH_CASE(at::kBFloat16, ...));
//
// Checks count only where they always run: statements of the body (and of
// blocks, `do { } while (false)` and immediately invoked lambdas in it),
// not inside an `if`, a loop or a `switch` case. A check is an `if` whose
// branch throws or calls a `[[noreturn]]` function (what `TORCH_CHECK`
// expands to); it requires the negation of its condition. Read from it:
//
//   - dtypes: a `switch` over `x.scalar_type()` (`AT_DISPATCH_*`, a custom
//     dispatch macro) gives x the dtypes of its cases; `x.scalar_type() ==
//     at::kHalf || ...` and `x.dtype() == torch::kFloat32` give those listed;
//     `x.scalar_type() == y.scalar_type()` makes one the same as the other;
//   - ranks: `x.dim() == 2`, `x.ndimension() == 2`, `x.sizes().size() == 2`;
//   - shapes: `w.size(0) == x.size(1)` (also through a `const` local
//     initialised from a size, whose name then names the dim), and a size
//     compared with a literal; an index may count from the end (`-1`,
//     `x.dim() - 1`);
//   - a tensor of unknown rank whose checks reach only its last dims, or
//     whose least rank is checked (`x.dim() >= 1`), gets `["...", D]`: any
//     leading dims, then the ones named (a norm over the hidden dim);
//   - constraints: `x.size(-1) % 8 == 0` and other comparisons of sizes
//     with literals, over the dims' names;
//   - `x.is_contiguous()`, `x.is_cuda()` / `x.device().is_cuda()`.
//
// Anything else (a comparison with a parameter or a variable, a check in a
// branch) derives nothing, and the field stays TODO. Each derived value
// records where it came from as `file:line:col` of the check's spelling
// (the macro's use, not its definition), relative to the upstream root.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_SPECDERIVATION_H
#define OPMIG_MIGRATE_LIB_SPECDERIVATION_H

#include "opmig/migrate/OpSignature.h"
#include "opmig/support/ValidationSpec.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

struct SpecRequest {
  const clang::FunctionDecl *Function = nullptr; ///< The entry's definition.
  const OpSignature *Signature = nullptr;        ///< Its params, schema and returns.
  /// Per result: the mutable parameter it aliases, if any (FakeResult).
  std::vector<std::optional<unsigned>> ReturnedParams;
  std::string SourceRoot; ///< `at` locations are relative to it.
};

/// The op's spec entry: inputs and outputs from the signature, what the
/// body checks, opmig's default tolerances, TODO for the rest.
SpecOp deriveSpecOp(const SpecRequest &Request, clang::ASTContext &Ctx);

} // namespace opmig::migrate

#endif
