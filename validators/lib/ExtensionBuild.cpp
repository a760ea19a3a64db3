//===- ExtensionBuild.cpp - A cache-dit extension, built out of tree ------===//
//
// What `CACHE_DIT_BUILD_<DOMAIN>=1 pip install -e .` runs for the block's
// CUDAExtension, without setuptools and outside the target: each source
// compiled with the block's flags plus what torch's BuildExtension adds
// (torch's and Python's headers, TORCH_EXTENSION_NAME, the nvcc half/bfloat16
// defines), `.cu` by nvcc and C++ by the host compiler, then linked against
// torch's libraries as `<dir>/ext/<last name>.so`.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "DomainBuilders.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/validate/FirstError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

namespace opmig::validate {

namespace {

/// torch.utils.cpp_extension.COMMON_NVCC_FLAGS.
const char *const TorchNvccFlags[] = {
    "-D__CUDA_NO_HALF_OPERATORS__",       "-D__CUDA_NO_HALF_CONVERSIONS__",
    "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__",
    "--expt-relaxed-constexpr",
};

/// What a CUDAExtension links (torch.utils.cpp_extension.CUDAExtension).
const char *const TorchLibraries[] = {"-lc10",    "-ltorch",    "-ltorch_cpu", "-ltorch_python",
                                      "-lcudart", "-lc10_cuda", "-ltorch_cuda"};

std::string lastName(llvm::StringRef Module) {
  return Module.rsplit('.').second.empty() ? Module.str() : Module.rsplit('.').second.str();
}

std::string hostCompiler() {
  for (llvm::StringRef Name : {"c++", "g++"})
    if (llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name))
      return *Path;
  return "";
}

/// Include dirs and defines every source gets, as BuildExtension gives them.
std::vector<std::string> commonFlags(const LayerContext &Ctx, const ExtensionDeclaration &E) {
  std::vector<std::string> Flags;
  for (const std::string &Dir : E.IncludeDirs)
    Flags.push_back("-I" + Ctx.Root + "/" + Dir);
  for (const std::string &Dir : Ctx.Toolchain.Torch.IncludeDirs)
    Flags.push_back("-I" + Dir);
  if (!Ctx.Toolchain.CudaPath.empty())
    Flags.push_back("-I" + Ctx.Toolchain.CudaPath + "/include");
  if (!Ctx.Toolchain.PythonIncludeDir.empty())
    Flags.push_back("-I" + Ctx.Toolchain.PythonIncludeDir);
  Flags.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  Flags.push_back("-DTORCH_EXTENSION_NAME=" + lastName(E.Name));
  return Flags;
}

std::vector<std::string> compileCommand(const LayerContext &Ctx, const ExtensionDeclaration &E,
                                        const std::string &Source, const std::string &Object,
                                        const std::string &Host) {
  bool Cuda = isCudaSource(Source);
  std::vector<std::string> Command = {Cuda ? Ctx.Nvcc : Host, "-c", Ctx.Root + "/" + Source, "-o",
                                      Object};
  llvm::append_range(Command, commonFlags(Ctx, E));
  if (Cuda) {
    llvm::append_range(Command, TorchNvccFlags);
    Command.insert(Command.end(), {"--compiler-options", "-fPIC"});
    llvm::append_range(Command, E.NvccFlags);
  } else {
    Command.push_back("-fPIC");
    llvm::append_range(Command, E.CxxFlags);
  }
  return Command;
}

struct CompiledSource {
  std::string Source, Object;
  ChildOutcome Run;
  bool Reused = false; ///< The object came from the object cache.
};

std::vector<CompiledSource> compileAll(const LayerContext &Ctx, const ExtensionDeclaration &E,
                                       const std::string &ObjectDir, const std::string &Host) {
  std::vector<CompiledSource> Results(E.Sources.size());
  ObjectCache Cache(Ctx.buildCacheDir() + "/objects");
  unsigned Jobs = Ctx.Options.Jobs;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < E.Sources.size(); ++I) {
    Results[I].Source = E.Sources[I];
    Results[I].Object = ObjectDir + "/" + std::to_string(I) + "-" +
                        llvm::sys::path::filename(E.Sources[I]).str() + ".o";
    Pool.async([&, I] {
      ObjectCompile C{compileCommand(Ctx, E, Results[I].Source, Results[I].Object, Host), Ctx.Root,
                      Results[I].Object};
      Results[I].Run = compileObject(Cache, C, BuildStepTimeoutSeconds, Results[I].Reused);
    });
  }
  Pool.wait();
  return Results;
}

/// ` (N of M objects reused: ...)`, or nothing.
std::string reusedObjects(const std::vector<CompiledSource> &Compiled) {
  size_t Reused = llvm::count_if(Compiled, [](const CompiledSource &C) { return C.Reused; });
  if (!Reused)
    return "";
  return " (" + std::to_string(Reused) + " of " + std::to_string(Compiled.size()) +
         " objects reused: their inputs are unchanged since an earlier build)";
}

ChildOutcome link(const LayerContext &Ctx, const std::vector<CompiledSource> &Objects,
                  const std::string &Library, const std::string &Host) {
  std::vector<std::string> Command = {Host, "-shared", "-o", Library};
  for (const CompiledSource &O : Objects)
    Command.push_back(O.Object);
  Command.push_back("-L" + Ctx.Toolchain.Torch.LibDir);
  if (!Ctx.Toolchain.CudaPath.empty())
    Command.push_back("-L" + Ctx.Toolchain.CudaPath + "/lib64");
  llvm::append_range(Command, TorchLibraries);
  return runChild(Command, {}, "", BuildStepTimeoutSeconds);
}

} // namespace

std::vector<std::string> torchNvccFlags() {
  return {std::begin(TorchNvccFlags), std::end(TorchNvccFlags)};
}

std::vector<std::string> torchLinkFlags() {
  return {std::begin(TorchLibraries), std::end(TorchLibraries)};
}

std::string extensionDir(const std::string &BuildDir) { return BuildDir + "/ext"; }

BuildOutcome buildPythonExtension(const LayerContext &Ctx, const BuildPlan &Plan,
                                  const std::string &Dir) {
  BuildOutcome Out;
  const ExtensionDeclaration &E = Plan.Extension;
  std::string Host = hostCompiler();
  if (Host.empty()) {
    Out.Checks.push_back(skipped("build-compile", "no host C++ compiler (c++ or g++) on PATH"));
    return Out;
  }
  std::string ObjectDir = Dir + "/obj";
  if (std::error_code EC = llvm::sys::fs::create_directories(ObjectDir);
      EC || llvm::sys::fs::create_directories(extensionDir(Dir))) {
    Out.Checks.push_back(failed("build-compile", "cannot create " + ObjectDir));
    return Out;
  }
  Ctx.progress("build: compiling " + std::to_string(E.Sources.size()) + " sources of " + E.Name +
               " for " + torchArchList(Plan.Archs));
  std::vector<CompiledSource> Compiled = compileAll(Ctx, E, ObjectDir, Host);
  for (const CompiledSource &C : Compiled)
    if (!C.Run.succeeded()) {
      std::string Why =
          C.Run.How == ChildOutcome::Kind::Exited
              ? firstBuildError(C.Run.Stdout + "\n" + C.Run.Stderr, Ctx.Root).summary()
              : C.Run.describe();
      Out.Checks.push_back(failed("build-compile", C.Source + ": " + Why, C.Source));
      Out.Checks.push_back(skipped("build-link", "a source does not compile"));
      return Out;
    }
  Out.CompiledTUs = E.Sources;
  Out.Checks.push_back(
      passed("build-compile", std::to_string(E.Sources.size()) + " sources compile for " +
                                  torchArchList(Plan.Archs) + reusedObjects(Compiled)));
  std::string Library = extensionDir(Dir) + "/" + lastName(E.Name) + ".so";
  Ctx.progress("build: linking " + Library);
  ChildOutcome Linked = link(Ctx, Compiled, Library, Host);
  if (!Linked.succeeded()) {
    Out.Checks.push_back(
        failed("build-link", "the link fails: " + Linked.describe() + ": " + Linked.stderrTail()));
    return Out;
  }
  Out.Library = Library;
  Out.Checks.push_back(passed("build-link", "linked " + E.Name + " against torch " +
                                                Ctx.Toolchain.Torch.Version + "'s libraries"));
  return Out;
}

} // namespace opmig::validate
