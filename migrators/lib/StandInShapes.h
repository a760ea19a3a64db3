//===- StandInShapes.h - Tensor shapes that pass a fake's checks -*- C++ -*-===//
//
// The generated per-op tests call the fake on stand-in tensors; since the
// fake checks the shapes the entry checks (FakeChecks.h), the stand-ins must
// pass those checks or the test fails for the test's own inputs. Every named
// dim gets one size, the first of 4, 8, 16, ..., 256 for which each
// constraint the code told holds; a literal dim keeps its size; a tensor
// whose shape the code did not tell is [2, 3, 4, 5] (the fake checks nothing
// of it). One size for all names keeps `w.size(0) == x.size(1)` true
// without solving anything; a constraint that needs two names to differ
// has no stand-ins, and the test that needs them is not generated.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_STANDINSHAPES_H
#define OPMIG_MIGRATE_LIB_STANDINSHAPES_H

#include "opmig/support/ValidationSpec.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

/// A shape per tensor input of `Op`, by input name; none when no single
/// size satisfies the constraints the code told.
std::optional<std::map<std::string, std::vector<int64_t>>> standInShapes(const SpecOp &Op);

} // namespace opmig::migrate

#endif
