//===- BuildLayer.cpp - Layer 1: the kernels compile and link -------------===//

#include "BuildLayer.h"

#include "BuildCache.h"
#include "DeclaredExtension.h"
#include "DomainBuilders.h"
#include "DomainNames.h"
#include "opmig/validate/BuildKey.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Program.h"

#include <chrono>

namespace opmig::validate {

namespace {

std::string hostCompiler() {
  for (llvm::StringRef Name : {"c++", "g++"})
    if (llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name))
      return *Path;
  return "";
}

/// Why this machine cannot build the domain; empty when it can.
std::string cannotBuildBecause(const LayerContext &Ctx) {
  if (!canBuildProfile(Ctx.Profile))
    return "building a domain of profile '" + Ctx.Profile + "' is " +
           "not implemented in this release";
  if (Ctx.Nvcc.empty())
    return "no nvcc (neither <cuda-path>/bin/nvcc nor on PATH)";
  if (Ctx.Toolchain.Torch.IncludeDirs.empty() || Ctx.Toolchain.Torch.LibDir.empty())
    return "no torch package for " +
           (Ctx.Toolchain.Python.empty() ? std::string("python3") : Ctx.Toolchain.Python) +
           " (its headers, libraries and CMake config are built against)";
  return "";
}

llvm::Expected<BuildPlan> planFor(const LayerContext &Ctx) {
  if (Ctx.Profile == "generic")
    return planCMakeBuild(Ctx.M, Ctx.Archs);
  llvm::Expected<ExtensionDeclaration> Declared =
      Ctx.Profile == "veomni"
          ? readJitLoadCall(Ctx.Toolchain.Python, Ctx.Root, veomniNames(Ctx).ImplFile)
          : readSetupBlock(Ctx.Toolchain.Python, Ctx.Root, Ctx.M.Domain);
  if (!Declared)
    return Declared.takeError();
  return planExtensionBuild(Ctx.M, std::move(*Declared), Ctx.Archs);
}

BuildOutcome reuse(const std::string &Library, const std::string &Key) {
  BuildOutcome Out;
  std::string Why = "up to date: built before from the same inputs (key " + Key + ")";
  Out.Checks.push_back(passed("build-compile", Why));
  Out.Checks.push_back(passed("build-link", Why));
  Out.Library = Library;
  return Out;
}

void addFigures(BuildOutcome &Out, const LayerContext &Ctx, const std::string &Key,
                const std::string &Dir, bool Reused, double Seconds) {
  if (Out.Checks.empty())
    return;
  nlohmann::ordered_json &F = Out.Checks.back().Figures;
  F["archs"] = torchArchList(Ctx.Archs);
  F["archs_from"] = Ctx.ArchesFrom;
  F["key"] = Key;
  F["build_dir"] = Dir;
  F["reused"] = Reused;
  F["seconds"] = Seconds;
  if (!Out.Library.empty())
    F["library"] = Out.Library;
}

} // namespace

LayerResult runBuildLayer(LayerContext &Ctx) {
  if (std::string Why = cannotBuildBecause(Ctx); !Why.empty()) {
    Ctx.NotBuiltBecause = Why;
    return settleLayer("build", {skipped("build-compile", Why)});
  }
  llvm::Expected<BuildPlan> Plan = planFor(Ctx);
  if (!Plan) {
    std::string Why = llvm::toString(Plan.takeError());
    Ctx.NotBuiltBecause = "the build could not be planned";
    return settleLayer("build", {failed("build-plan", Why, Ctx.ManifestPath)});
  }
  BuildToolchain Tools{Ctx.Toolchain.Torch.Version, Ctx.Toolchain.Torch.LibDir, Ctx.Nvcc,
                       hostCompiler(), Ctx.Toolchain.PythonIncludeDir};
  std::string KeyText = buildKeyText(*Plan, Ctx.Root, Tools);
  std::string Key = buildKey(*Plan, Ctx.Root, Tools);
  llvm::Expected<std::unique_ptr<BuildSlot>> Slot =
      BuildSlot::acquire(Ctx.buildCacheDir(), Plan->Profile + "-" + Plan->Domain + "-" + Key);
  if (!Slot) {
    Ctx.NotBuiltBecause = "the build cache cannot be used";
    return settleLayer("build", {failed("build-plan", llvm::toString(Slot.takeError()))});
  }
  std::string Dir = (*Slot)->dir();
  auto Start = std::chrono::steady_clock::now();
  BuildOutcome Out;
  bool Reused = false;
  if (std::optional<std::string> Library = (*Slot)->finishedLibrary()) {
    Ctx.progress("build: up to date in " + Dir);
    Out = reuse(*Library, Key);
    Reused = true;
  } else if (!Ctx.Options.Build) {
    Ctx.NotBuiltBecause = "no up-to-date build, and building was turned off";
    return settleLayer("build", {skipped("build-compile", Ctx.NotBuiltBecause)});
  } else if (llvm::Error E = (*Slot)->clear()) {
    Ctx.NotBuiltBecause = "the build folder cannot be emptied";
    return settleLayer("build", {failed("build-plan", llvm::toString(std::move(E)))});
  } else {
    Out = Plan->Kind == BuildKind::CMakeProject ? buildCMakeProject(Ctx, *Plan, Dir)
                                                : buildPythonExtension(Ctx, *Plan, Dir);
    if (!Out.Library.empty())
      if (llvm::Error E = (*Slot)->finish(Out.Library, KeyText))
        Out.Checks.push_back(failed("build-plan", llvm::toString(std::move(E))));
  }
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  addFigures(Out, Ctx, Key, Dir, Reused, Seconds);
  if (!Out.Library.empty())
    Ctx.Built = BuiltDomain{*Plan, Dir, Out.Library,
                            Plan->Kind == BuildKind::CMakeProject ? cmakeCompiledTUs(Dir, Ctx.Root)
                                                                  : Plan->Extension.Sources};
  else
    Ctx.NotBuiltBecause = "the build failed";
  return settleLayer("build", std::move(Out.Checks));
}

} // namespace opmig::validate
