//===- BuildPlan.cpp - How a migrated domain is built ---------------------===//

#include "opmig/validate/BuildPlan.h"

#include "opmig/support/Errors.h"
#include "opmig/support/SourceFiles.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <set>

namespace opmig::validate {

namespace {

namespace path = llvm::sys::path;

/// What a build reads of the domain: its C++/CUDA files and CMake files, migrated or owned
/// generated ones (a block in a target-owned file is keyed through what the plan reads of
/// it), sorted, once each. Python files are not built: editing them reuses the build.
std::vector<std::string> manifestFiles(const Manifest &M) {
  std::set<std::string> Files;
  auto Add = [&](const std::string &Path) {
    if (isSourceFileName(Path) || path::filename(Path) == "CMakeLists.txt")
      Files.insert(Path);
  };
  for (const MigratedFileRecord &F : M.Files)
    Add(F.TargetPath);
  for (const GeneratedFileRecord &G : M.Generated)
    if (G.Blocks.empty())
      Add(G.TargetPath);
  return {Files.begin(), Files.end()};
}

std::vector<std::string> manifestTUs(const Manifest &M) {
  std::vector<std::string> TUs;
  for (const std::string &File : manifestFiles(M))
    if (isTranslationUnitName(File))
      TUs.push_back(File);
  return TUs;
}

BuildPlan basePlan(const Manifest &M, std::vector<CudaArch> Archs) {
  BuildPlan Plan;
  Plan.Profile = M.Profile;
  Plan.Domain = M.Domain;
  Plan.Archs = std::move(Archs);
  Plan.KeyedFiles = manifestFiles(M);
  Plan.ManifestTUs = manifestTUs(M);
  return Plan;
}

} // namespace

bool canBuildProfile(llvm::StringRef Profile) {
  return Profile == "generic" || Profile == "cache-dit" || Profile == "veomni";
}

llvm::Expected<BuildPlan> planCMakeBuild(const Manifest &M, std::vector<CudaArch> Archs) {
  BuildPlan Plan = basePlan(M, std::move(Archs));
  Plan.Kind = BuildKind::CMakeProject;
  // The domain's own project, not the edit that adds it to kernels/.
  for (const GeneratedFileRecord &G : M.Generated)
    if (G.Blocks.empty() && path::filename(G.TargetPath) == "CMakeLists.txt")
      Plan.CMakeSourceDir = path::parent_path(G.TargetPath).str();
  if (Plan.CMakeSourceDir.empty())
    return inputError("the manifest of domain '", M.Domain,
                      "' records no generated CMakeLists.txt; re-run opmig migrate with the "
                      "generic profile");
  return Plan;
}

BuildPlan planExtensionBuild(const Manifest &M, ExtensionDeclaration Declared,
                             std::vector<CudaArch> Archs) {
  BuildPlan Plan = basePlan(M, std::move(Archs));
  Plan.Kind = BuildKind::PythonExtension;
  std::vector<std::string> Nvcc;
  for (std::string &Flag : Declared.NvccFlags) {
    if (Flag != GencodePlaceholder) {
      Nvcc.push_back(std::move(Flag));
      continue;
    }
    for (const CudaArch &Arch : Plan.Archs)
      llvm::append_range(Nvcc, Arch.gencodeFlags());
  }
  Declared.NvccFlags = std::move(Nvcc);
  std::set<std::string> Keyed(Plan.KeyedFiles.begin(), Plan.KeyedFiles.end());
  Keyed.insert(Declared.Sources.begin(), Declared.Sources.end());
  Plan.KeyedFiles.assign(Keyed.begin(), Keyed.end());
  Plan.Extension = std::move(Declared);
  return Plan;
}

} // namespace opmig::validate
