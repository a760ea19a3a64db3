//===- FakeChecks.h - The shape checks of a generated fake ------*- C++ -*-===//
//
// A fake that accepts a shape its kernel rejects lets torch.compile trace a
// call that fails only when it runs. The checks the spec derivation read
// from the entry (SpecDerivation.h) are written back over the parameters,
// in the order a reader wants them: ranks first (so that every size below
// exists), then sizes, then constraints.
//
//   x: shape [x_0, D], checked at a.cu:3:3    x.dim() == 2
//   w: shape [D, 3]                           w.dim() == 2
//                                             w.size(0) == x.size(1)
//   constraint: D % 8 == 0, at a.cu:6:3       w.size(1) == 3
//                                             x.size(1) % 8 == 0
//
// Behind leading dims (`["...", D]`) the rank is a least one and sizes
// count from the end (`x.dim() >= 1`, `w.size(0) == x.size(-1)`).
// A dim name is spelled as its first occurrence, input by input. Only what
// the code told counts (a user's or a TODO value never does), and only
// tensors that are always there: an optional tensor's shape, and a
// constraint over a dim only it has, give no check. Each failure message
// names the op and the values it got; rank and constraint messages also
// name the upstream check they come from.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_FAKECHECKS_H
#define OPMIG_MIGRATE_LIB_FAKECHECKS_H

#include "opmig/migrate/OpSignature.h"
#include "opmig/support/ValidationSpec.h"

#include <vector>

namespace opmig::migrate {

/// The checks of `Op`'s fake, from its derived spec entry.
std::vector<FakeCheck> deriveFakeChecks(const SpecOp &Op);

} // namespace opmig::migrate

#endif
