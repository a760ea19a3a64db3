//===- OpLayers.h - Layers 3 to 7: api, fake, smoke, parity, boundary -*- C++ -*-===//
//
// Each runs python/op_harness.py (OpHarness.h) over what the build layer made:
// `api` once for the domain, the others once per op over the cases the
// validation spec gives (OpRequests.h). A case is a check named
// `<layer>:<op>/<case>/<dtype>`; an op whose spec lacks what the layer needs
// (cases, a shape, the reference for parity) is a skipped check saying which
// field to fill.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_OPLAYERS_H
#define OPMIG_VALIDATE_LIB_OPLAYERS_H

#include "LayerContext.h"
#include "nlohmann/json.hpp"
#include "opmig/validate/OpHarness.h"
#include "opmig/validate/OpRequests.h"

namespace opmig::validate {

/// Runs `Layer` (`api`, `fake`, `smoke`, `parity` or `boundary`).
LayerResult runOpLayer(const LayerContext &Ctx, const std::string &Layer);

// For the layers that run the same harness over the same cases (diff, perf):

/// Where the spec is read: --spec, else beside the manifest.
std::string opLayerSpecPath(const LayerContext &Ctx);
/// The same, root-relative when inside the target (for findings).
std::string opLayerSpecFile(const LayerContext &Ctx);
/// A harness request's common part: load, namespace, device, reference paths.
nlohmann::json opLayerRequest(const LayerContext &Ctx);
/// The checks of one harness run, each named `<Prefix><case>`; those of a
/// case of `Op` the spec did not give say where it came from (`origin`).
std::vector<CheckResult> opLayerChecks(const OpHarnessRun &Run, const std::string &Prefix,
                                       const std::string &File, const nlohmann::json &Op);
/// `Op`'s request with the cases of the upstream tests (Ctx.Tests) and of
/// the code when the spec gives none, noted in the report.
OpRequest opLayerOpRequest(const LayerContext &Ctx, const SpecOp &Op);
/// Why an op has no case: what to fill.
std::string noCasesBecause(const OpRequest &R);

} // namespace opmig::validate

#endif
