//===- ImportLayer.h - Layer 2: import safety and loading -------*- C++ -*-===//

#ifndef OPMIG_VALIDATE_LIB_IMPORTLAYER_H
#define OPMIG_VALIDATE_LIB_IMPORTLAYER_H

#include "LayerContext.h"

namespace opmig::validate {

/// cache-dit: the package imports with the extension hidden, says it is
/// unavailable, and an op names the build command; the built extension
/// loads. generic: the built library loads and registers exactly the
/// manifest's ops. A missing symbol is named, demangled, with its file.
LayerResult runImportLayer(const LayerContext &Ctx);

/// The command the cache-dit domain module names when its extension is
/// missing (rules/profiles/cache-dit/templates/domain_module.py.mustache).
std::string cacheDitBuildCommand(const std::string &Domain);

} // namespace opmig::validate

#endif
