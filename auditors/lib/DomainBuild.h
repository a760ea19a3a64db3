//===- DomainBuild.h - The review's build check of a domain -----*- C++ -*-===//
//
// Compiles every C++/CUDA TU a manifest names (ported files and owned
// generated glue) as the target holds it now, to host objects, and links
// them when all compile, with what the manifest records
// of the glue's build (standard, defines, include dirs, nvcc flags, arch)
// plus torch's and Python's headers, through compileTree. A
// review reads no profile and no upstream, so this is all it has; flags of
// the upstream's machine that the glue does not carry come after `--`.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_LIB_DOMAINBUILD_H
#define OPMIG_AUDIT_LIB_DOMAINBUILD_H

#include "opmig/audit/Review.h"
#include "opmig/support/Manifest.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace opmig::audit {

/// InputError for a `GpuArch` that is no NVIDIA architecture.
llvm::Error checkBuildCheckOptions(const BuildCheckOptions &Options);

/// Runs the check, or says why it did not (not asked, no build record, no
/// TU on disk, no nvcc, no torch headers). Never fails.
BuildCheckResult checkDomainBuilds(const opmig::Manifest &M, const std::string &Target,
                                   const std::optional<BuildCheckOptions> &Options);

/// A `does-not-compile` finding per TU that fails, with its first error.
std::vector<ReviewFinding> buildFindings(const BuildCheckResult &Build);

/// A `does-not-link` finding per symbol the linked domain leaves undefined
/// (on the first TU that uses it), or one when the link itself fails.
std::vector<ReviewFinding> linkFindings(const BuildCheckResult &Build);

} // namespace opmig::audit

#endif
