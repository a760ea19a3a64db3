//===- TensorWrites.h - Which tensor parameters a body writes ---*- C++ -*-===//
//
// An op's outputs are often declared as `at::Tensor out`, `const at::Tensor
// &out` or `std::optional<at::Tensor> out`: the type says nothing, the body
// writes them. This finds the tensor parameters (`at::Tensor` by value or
// by reference, `std::optional<at::Tensor>`) that a function body writes, so
// that the schema can mark them `Tensor(a!)` / `Tensor(a!)?`:
//
//   void f(at::Tensor out, std::optional<at::Tensor> lse,
//          const at::Tensor &x) {
//     out.copy_(x);                           // out: `copy_` on it
//     k<<<1, 1>>>(lse->data_ptr<float>(),     // lse: its data pointer passed
//                 x.data_ptr<float>());       //   as `float *`; x: `const float *`, a read
//   }
//
// A parameter counts as written when (directly, through `std::optional`'s
// `->`, `*` or `.value()`, or through a local tensor initialised from it):
//
//   1. a method whose name ends in one `_` is called on it (`copy_`,
//      `zero_`, `index_put_`, `resize_`, ...);
//   2. it is passed to a function whose name ends in `_out` as one of the
//      leading arguments bound to non-const `at::Tensor &` parameters of
//      that function (`at::mm_out(out, a, b)`: `out` only);
//   3. its data pointer (`data_ptr<T>()`, `data_ptr()`; through casts and
//      pointer arithmetic) is passed where the parameter is a pointer to
//      non-const (a kernel launch, a call, a constructor), or initialises a
//      local pointer to non-const that is passed so or written through
//      (`o[i] = v`, `*o = v`, `++o[i]`); `mutable_data_ptr` always counts,
//      `const_data_ptr` and pointer-to-const parameters are reads;
//   4. it, or its data pointer, is passed to a function defined in the same
//      main file whose parameter is written by these rules (followed
//      `MaxCallDepth` calls deep; a function already being followed counts
//      as not writing): a data pointer a local helper only stores is not a
//      write by rule 3;
//   5. its data pointer is stored in a pointer field (`p.state_ptr = ...`,
//      `Params{..., x.data_ptr()}`) that the tree's code writes through
//      (`WrittenPointerFields`, from the analysis of every TU:
//      analyzers/lib/PointerFieldWrites.h), as kernels taking a `Params`
//      struct do, and no other tensor's pointer goes into that field (a
//      generic `Buffer{void *data}` wrapping inputs and outputs alike does
//      not tell which is written).
//
// Nothing else counts: a call of a function defined elsewhere (unless
// `_out`), a view (`out.view(...)`, `out.select(...)`) that is then
// written. Such a parameter stays unmarked. For a non-const `at::Tensor &`,
// whose type says output, `unseenReceivers` names the functions of the tree
// it is handed to whose bodies these rules cannot read: while there are
// any, the write is undecided and the type's answer stands.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_TENSORWRITES_H
#define OPMIG_MIGRATE_LIB_TENSORWRITES_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

#include <set>
#include <string>
#include <vector>

namespace opmig::migrate {

struct TensorWrite {
  unsigned Param = 0;                ///< Index of the written parameter.
  const clang::Stmt *Site = nullptr; ///< The first write found, in the body analysed.
  /// How, e.g. `` `copy_` on it ``, `` its data pointer passed to `k` as `float *` ``.
  std::string How;
  /// Rule 5's field (USR), else empty.
  std::string Field;
};

/// Whether `Type` is one the analysis follows: `at::Tensor` by value or by
/// reference, or `std::optional<at::Tensor>` (by value or by reference).
bool isTensorLike(clang::QualType Type);

/// The tensor-like parameters of `Function` that its body writes, by the
/// rules above, in parameter order; one entry per written parameter (its
/// first write). Empty when `Function` has no body. `SM` tells which
/// callees are defined in the main file; `WrittenPointerFields` holds the
/// USRs of rule 5's fields.
std::vector<TensorWrite> findTensorWrites(const clang::FunctionDecl &Function,
                                          const clang::SourceManager &SM,
                                          const std::set<std::string> &WrittenPointerFields);

/// The functions that parameter `Param` of `Function` is handed to (as a
/// tensor, not its data pointer) whose bodies rule 4 cannot follow: neither
/// torch's, the toolkit's nor the standard library's (their signatures say
/// what they write), nor defined in the main file. `Function.getBody()`'s
/// calls, lambdas included; a call through a pointer is named `a function
/// pointer`.
std::vector<std::string> unseenReceivers(const clang::FunctionDecl &Function, unsigned Param,
                                         const clang::SourceManager &SM);

} // namespace opmig::migrate

#endif
