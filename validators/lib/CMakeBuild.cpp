//===- CMakeBuild.cpp - The generic profile's CMake project, built --------===//
//
// As the generated CMakeLists.txt says to build it alone:
//
//   TORCH_CUDA_ARCH_LIST=9.0a cmake -S kernels/<domain> -B <dir>
//       -DCMAKE_PREFIX_PATH=<torch>/share/cmake -DCMAKE_CUDA_COMPILER=<nvcc>
//   cmake --build <dir>
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "DomainBuilders.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/TreeCompile.h"
#include "opmig/validate/FirstError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"

namespace opmig::validate {

namespace {

namespace fs = llvm::sys::fs;

std::string torchCMakePrefix(const LayerContext &Ctx) {
  return llvm::sys::path::parent_path(Ctx.Toolchain.Torch.LibDir).str() + "/share/cmake";
}

std::vector<std::string> configureCommand(const LayerContext &Ctx, const BuildPlan &Plan,
                                          const std::string &CMake, const std::string &Dir) {
  std::vector<std::string> Command = {CMake,
                                      "-S",
                                      Ctx.Root + "/" + Plan.CMakeSourceDir,
                                      "-B",
                                      Dir,
                                      "-DCMAKE_BUILD_TYPE=Release",
                                      "-DCMAKE_PREFIX_PATH=" + torchCMakePrefix(Ctx),
                                      "-DCMAKE_CUDA_COMPILER=" + Ctx.Nvcc,
                                      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"};
  // The Python torch runs in, for a project that asks for Python's headers.
  if (!Ctx.Toolchain.Python.empty())
    if (llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName(Ctx.Toolchain.Python))
      Command.push_back("-DPython3_EXECUTABLE=" + *Python);
  if (llvm::sys::findProgramByName("ninja"))
    Command.insert(Command.begin() + 1, {"-G", "Ninja"});
  return Command;
}

} // namespace

std::vector<std::string> cmakeCompiledTUs(const std::string &Dir, const std::string &Root) {
  std::vector<std::string> TUs;
  auto Buffer = llvm::MemoryBuffer::getFile(Dir + "/compile_commands.json");
  if (!Buffer)
    return TUs;
  llvm::Expected<nlohmann::json> Database =
      parseJsonText((*Buffer)->getBuffer(), "compile_commands.json");
  if (!Database) {
    llvm::consumeError(Database.takeError());
    return TUs;
  }
  if (Database->is_array())
    for (const nlohmann::json &Entry : *Database)
      if (Entry.contains("file") && Entry["file"].is_string())
        TUs.push_back(relativeToRoot(Entry["file"].get<std::string>(), Root));
  return TUs;
}

namespace {

/// The shared library the project made (the only one it makes).
std::string madeLibrary(const std::string &Dir) {
  std::error_code EC;
  for (fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(".so"))
      return It->path();
  return "";
}

std::string failureText(const ChildOutcome &Run, const std::string &Root) {
  if (Run.How != ChildOutcome::Kind::Exited)
    return Run.describe();
  return firstBuildError(Run.Stdout + "\n" + Run.Stderr, Root).summary();
}

} // namespace

BuildOutcome buildCMakeProject(const LayerContext &Ctx, const BuildPlan &Plan,
                               const std::string &Dir) {
  BuildOutcome Out;
  llvm::ErrorOr<std::string> CMake = llvm::sys::findProgramByName("cmake");
  if (!CMake) {
    Out.Checks.push_back(skipped("build-configure", "no cmake on PATH"));
    return Out;
  }
  std::string ArchEnv = "TORCH_CUDA_ARCH_LIST=" + torchArchList(Plan.Archs);
  Ctx.progress("build: configuring " + Plan.CMakeSourceDir + " (" + ArchEnv + ")");
  ChildOutcome Configure =
      runChild(configureCommand(Ctx, Plan, *CMake, Dir), {ArchEnv}, "", BuildStepTimeoutSeconds);
  if (!Configure.succeeded()) {
    Out.Checks.push_back(failed("build-configure",
                                "cmake cannot configure " + Plan.CMakeSourceDir + ": " +
                                    failureText(Configure, Ctx.Root),
                                Plan.CMakeSourceDir + "/CMakeLists.txt"));
    return Out;
  }
  Out.Checks.push_back(
      passed("build-configure",
             "configured against torch " + Ctx.Toolchain.Torch.Version + "'s CMake config"));
  unsigned Jobs =
      Ctx.Options.Jobs ? Ctx.Options.Jobs : llvm::hardware_concurrency().compute_thread_count();
  Ctx.progress("build: compiling with " + std::to_string(Jobs) + " jobs");
  ChildOutcome Build = runChild({*CMake, "--build", Dir, "--parallel", std::to_string(Jobs)},
                                {ArchEnv}, "", BuildStepTimeoutSeconds);
  Out.CompiledTUs = cmakeCompiledTUs(Dir, Ctx.Root);
  std::string Count =
      std::to_string(Out.CompiledTUs.size()) + " TU" + (Out.CompiledTUs.size() == 1 ? "" : "s");
  if (!Build.succeeded()) {
    BuildFailure Failure = firstBuildError(Build.Stdout + "\n" + Build.Stderr, Ctx.Root);
    bool AtLink = Failure.File.empty() && !Failure.First;
    if (Build.How != ChildOutcome::Kind::Exited || !AtLink) {
      CheckResult Failed =
          failed("build-compile",
                 Build.How == ChildOutcome::Kind::Exited ? Failure.firstError()
                                                         : "the build " + Build.describe(),
                 Failure.File);
      Failed.Reason = failureText(Build, Ctx.Root);
      Out.Checks.push_back(std::move(Failed));
      Out.Checks.push_back(skipped("build-link", "a TU does not compile"));
    } else {
      Out.Checks.push_back(passed("build-compile", Count + " compile"));
      Out.Checks.push_back(failed("build-link", "the link fails: " + Failure.summary()));
    }
    return Out;
  }
  Out.Checks.push_back(
      passed("build-compile", Count + " compile for " + torchArchList(Plan.Archs)));
  Out.Library = madeLibrary(Dir);
  if (Out.Library.empty())
    Out.Checks.push_back(failed("build-link", "the project built no shared library"));
  else
    Out.Checks.push_back(
        passed("build-link", "linked " + llvm::sys::path::filename(Out.Library).str()));
  return Out;
}

} // namespace opmig::validate
