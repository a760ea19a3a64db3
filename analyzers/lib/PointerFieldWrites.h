//===- PointerFieldWrites.h - Pointer fields code writes through -*- C++ -*-===//
//
// Kernels often take their tensors as a struct of raw pointers, filled on
// the host from `data_ptr()` and passed by value to the launch:
//
//   struct Params { void *x_ptr; void *state_ptr; };
//   __global__ void k(Params p) {
//     float *state = reinterpret_cast<float *>(p.state_ptr) + blockIdx.x;
//     state[0] = static_cast<const float *>(p.x_ptr)[0];  // state_ptr written, x_ptr read
//   }
//
// Which tensor such an op writes is only visible in the kernels, which live
// in other TUs than the entry. So each parse records the pointer fields its
// code writes through, by USR (the same in every TU), and migrate's schema
// derivation (migrators/lib/TensorWrites.h) reads their union.
//
// A field counts as written through when a pointer read from it (through
// casts, pointer arithmetic, `?:`, `&p[i]`, and local pointers initialised
// or assigned from one) is stored through (`p[i] = v`, `*p = v`,
// `p->x = v`, `++p[i]`), or is passed as a pointer to non-const to a
// callee whose body cannot be followed (none visible, a function pointer,
// a constructor, deeper than `MaxCallDepth`). A visible callee is followed,
// and counts when it writes through that parameter by the same rules.
// Calls whose callee depends on a template parameter are left to the
// template's instantiations, which are visited too.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_LIB_POINTERFIELDWRITES_H
#define OPMIG_ANALYZE_LIB_POINTERFIELDWRITES_H

#include "clang/AST/Decl.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace opmig::analyze {

/// Finds, function by function, the pointer fields written through. One per
/// TU: it remembers which parameters of a followed callee are written.
class PointerFieldWrites {
public:
  PointerFieldWrites();
  ~PointerFieldWrites();

  /// Adds to `Fields` the USR of each pointer field `Function`'s body writes
  /// through.
  void collect(const clang::FunctionDecl &Function, std::set<std::string> &Fields);

private:
  struct Memo;
  std::unique_ptr<Memo> Callees;
};

} // namespace opmig::analyze

#endif
