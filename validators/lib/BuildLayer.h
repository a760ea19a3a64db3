//===- BuildLayer.h - Layer 1: the kernels compile and link -----*- C++ -*-===//

#ifndef OPMIG_VALIDATE_LIB_BUILDLAYER_H
#define OPMIG_VALIDATE_LIB_BUILDLAYER_H

#include "LayerContext.h"

namespace opmig::validate {

/// Builds the domain (or finds its up-to-date build in the cache) and
/// leaves it in `Ctx.Built`; the reason it did not in `Ctx.NotBuiltBecause`.
LayerResult runBuildLayer(LayerContext &Ctx);

} // namespace opmig::validate

#endif
