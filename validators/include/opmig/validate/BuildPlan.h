//===- BuildPlan.h - How a migrated domain is built -------------*- C++ -*-===//
//
// The build layer builds a domain the way its profile's target does:
//
//   generic    the generated CMake project (`kernels/<domain>/CMakeLists.txt`)
//              against torch's CMake config: a shared library that registers
//              its ops when loaded;
//   cache-dit  the extension `cache_dit._C_<domain>` with exactly the sources
//              and flags the domain's `setup-extension` block of setup.py
//              declares (ExtensionDeclaration, read with Python's ast), out
//              of tree, placed where the package can import it;
//   veomni     likewise the extension that the domain's cuda_impl.py builds
//              on first use with `torch.utils.cpp_extension.load(...)`, with
//              that call's sources and flags; the harnesses hand it to the
//              module in place of the JIT build.
//
// The plan is data from the manifest and that block; BuildKey.h keys it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_BUILDPLAN_H
#define OPMIG_VALIDATE_BUILDPLAN_H

#include "opmig/support/Manifest.h"
#include "opmig/validate/CudaArchList.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// What `_get_<domain>_extension()` of a cache-dit setup.py block passes to
/// `CUDAExtension(...)`, or a veomni cuda_impl.py to `load(...)`; paths
/// relative to the repository root.
struct ExtensionDeclaration {
  std::string Name; ///< `cache_dit._C_attn`.
  std::vector<std::string> Sources, IncludeDirs;
  std::vector<std::string> CxxFlags;
  /// With GencodePlaceholder where the block's arch helper adds its flags.
  std::vector<std::string> NvccFlags;
};

/// Stands for the block's `*_<domain>_gencode_flags()` in NvccFlags, or for
/// the arch flags `load(...)` adds.
inline constexpr const char *GencodePlaceholder = "{gencode}";

enum class BuildKind {
  CMakeProject,    ///< generic
  PythonExtension, ///< cache-dit, veomni
};

struct BuildPlan {
  BuildKind Kind = BuildKind::CMakeProject;
  std::string Profile, Domain;
  /// CMakeProject: the folder of the domain's CMakeLists.txt, root-relative.
  std::string CMakeSourceDir;
  /// PythonExtension: what the block declares, NvccFlags with the archs'
  /// -gencode flags in place of the placeholder.
  ExtensionDeclaration Extension;
  std::vector<CudaArch> Archs;
  /// Root-relative files whose content keys the build: the manifest's
  /// C++/CUDA and CMake files (migrated or owned generated), and the
  /// extension's sources.
  std::vector<std::string> KeyedFiles;
  /// The C++/CUDA TUs the manifest says the migration wrote, root-relative:
  /// those the build does not compile are where a missing symbol belongs.
  std::vector<std::string> ManifestTUs;
};

/// The generic profile's plan. InputError when the manifest records no
/// generated CMakeLists.txt.
llvm::Expected<BuildPlan> planCMakeBuild(const Manifest &M, std::vector<CudaArch> Archs);

/// The plan of a cache-dit or veomni domain from its declaration.
BuildPlan planExtensionBuild(const Manifest &M, ExtensionDeclaration Declared,
                             std::vector<CudaArch> Archs);

/// Whether this release builds domains of `Profile`.
bool canBuildProfile(llvm::StringRef Profile);

} // namespace opmig::validate

#endif
