//===- DomainBuilders.h - The two ways a profile builds a domain -*- C++ -*-===//
//
// Each builder compiles and links a planned domain into a folder of the
// build cache and says, as checks, what happened:
//
//   build-configure  (CMake only) the generated project configures against
//                    torch's CMake config
//   build-compile    every TU compiles (else: the failing TU and the
//                    compiler's first error)
//   build-link       the shared library is made
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_DOMAINBUILDERS_H
#define OPMIG_VALIDATE_LIB_DOMAINBUILDERS_H

#include "ChildProcess.h"
#include "LayerContext.h"
#include "opmig/support/ObjectCache.h"
#include "opmig/validate/ValidationReport.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// The object of `C`: taken from `Cache` (`Reused` set) when it holds it,
/// else compiled by running `C.Command` with `-MD -MF C.depFile()`, and
/// kept. A fetched object is reported as a clean exit.
ChildOutcome compileObject(const ObjectCache &Cache, const ObjectCompile &C,
                           unsigned TimeoutSeconds, bool &Reused);

struct BuildOutcome {
  std::vector<CheckResult> Checks;
  std::string Library;                  ///< Absolute; empty unless it was made.
  std::vector<std::string> CompiledTUs; ///< Root-relative.
};

/// A wall-clock limit on each compiler or CMake run: only a hang hits it.
inline constexpr unsigned BuildStepTimeoutSeconds = 3600;

/// generic: configures and builds the generated CMake project in `Dir`.
BuildOutcome buildCMakeProject(const LayerContext &Ctx, const BuildPlan &Plan,
                               const std::string &Dir);

/// cache-dit: compiles the declared sources with the declared flags (plus
/// what torch's BuildExtension adds) and links `<Dir>/ext/<name>.so`.
BuildOutcome buildPythonExtension(const LayerContext &Ctx, const BuildPlan &Plan,
                                  const std::string &Dir);

/// The TUs a CMake build in `Dir` compiles (its compile database),
/// root-relative.
std::vector<std::string> cmakeCompiledTUs(const std::string &Dir, const std::string &Root);

/// The nvcc flags torch's BuildExtension adds to every `.cu` compile.
std::vector<std::string> torchNvccFlags();

/// The torch and CUDA libraries a CUDAExtension links (`-lc10`, ...).
std::vector<std::string> torchLinkFlags();

/// The folder the extension's package path is extended with.
std::string extensionDir(const std::string &BuildDir);

} // namespace opmig::validate

#endif
