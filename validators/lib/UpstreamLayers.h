//===- UpstreamLayers.h - diff and perf: the migration against its upstream -*- C++ -*-===//
//
// Both layers build the upstream closure unchanged from `--source`
// (UpstreamBuilder.h) and run python/op_harness.py over the spec's cases
// with the migrated op and the upstream entry (`<namespace>_upstream`) on
// the same inputs:
//
//   diff  `diff-upstream-build`, `diff-upstream-registered` (the entries
//         load and register with the migrated schemas; no GPU needed), then
//         `diff:<op>/<case>/<dtype>`: outputs equal bitwise (or within the
//         spec's `upstream_tolerances`, where the migration changed the math
//         on purpose); a failing case names the likely cause among the
//         builds' flag differences, launch bounds and hand edits;
//   perf  `perf-upstream-build`, `perf-build-flags` and `perf-launch-bounds`
//         (static: the two builds' code-generation flags and each file's
//         `__launch_bounds__`; no GPU needed), then `perf:<op>/<case>/<dtype>`:
//         CUDA-event timings, the migrated/upstream ratio against the noise
//         band measured in the same run (upstream against itself).
//
// Without a GPU the static checks run and the layer is skipped, unless one
// of them failed.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_UPSTREAMLAYERS_H
#define OPMIG_VALIDATE_LIB_UPSTREAMLAYERS_H

#include "LayerContext.h"

#include <string>

namespace opmig::validate {

/// Runs `diff` or `perf`.
LayerResult runUpstreamLayer(LayerContext &Ctx, const std::string &Layer, bool HaveGpu);

} // namespace opmig::validate

#endif
