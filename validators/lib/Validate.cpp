//===- Validate.cpp - Build a migrated domain and prove it in layers ------===//

#include "opmig/validate/Validate.h"

#include "BuildLayer.h"
#include "HarnessSetup.h"
#include "ImportLayer.h"
#include "LayerContext.h"
#include "OpLayers.h"
#include "UpstreamLayers.h"
#include "opmig/support/Errors.h"
#include "opmig/support/NvccCheck.h"
#include "opmig/support/Paths.h"
#include "opmig/validate/Layers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace opmig::validate {

namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Folders no manifest of a migration lives in: version control, build
/// output, environments, caches.
bool skippedFolder(llvm::StringRef Name) {
  return Name.starts_with(".") || Name.starts_with("build") || Name == "node_modules" ||
         Name == "__pycache__" || Name == "venv" || Name == "dist";
}

std::vector<std::string> findManifests(const std::string &Root) {
  std::vector<std::string> Found;
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC; It.increment(EC)) {
    llvm::StringRef Name = path::filename(It->path());
    if (It->type() == fs::file_type::directory_file && skippedFolder(Name))
      It.no_push();
    else if (Name == ManifestFileName)
      Found.push_back(It->path());
  }
  llvm::sort(Found);
  return Found;
}

llvm::Error locateManifest(LayerContext &Ctx, const std::string &Domain) {
  for (const std::string &Path : findManifests(Ctx.Root)) {
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      continue;
    std::string Relative = Path.substr(Ctx.Root.size() + 1);
    llvm::Expected<Manifest> M = parseManifest((*Buffer)->getBuffer(), Relative);
    if (!M)
      return M.takeError();
    if (M->Domain != Domain)
      continue;
    if (!Ctx.ManifestPath.empty())
      return inputError("two manifests of domain '", Domain, "': ", Ctx.ManifestPath, " and ",
                        Relative);
    Ctx.M = std::move(*M);
    Ctx.ManifestPath = Relative;
  }
  if (Ctx.ManifestPath.empty())
    return inputError("no ", ManifestFileName, " of domain '", Domain, "' under ", Ctx.Root,
                      "; was it migrated with opmig migrate?");
  return llvm::Error::success();
}

/// The arch list and where it came from: the options, then the profile's
/// environment variables, then DefaultArch.
llvm::Error chooseArchs(LayerContext &Ctx) {
  const ValidateOptions &O = Ctx.Options;
  std::string List = DefaultArch;
  Ctx.ArchesFrom = "the default";
  if (!O.ArchList.empty()) {
    List = O.ArchList;
    Ctx.ArchesFrom = "the arch list asked for";
  } else if (Ctx.Profile == "cache-dit" && !O.ArchEnv.CacheDitArchList.empty()) {
    List = O.ArchEnv.CacheDitArchList;
    Ctx.ArchesFrom = "CACHE_DIT_CUDA_ARCH_LIST";
  } else if (!O.ArchEnv.TorchArchList.empty()) {
    List = O.ArchEnv.TorchArchList;
    Ctx.ArchesFrom = "TORCH_CUDA_ARCH_LIST";
  }
  llvm::Expected<std::vector<CudaArch>> Archs = parseCudaArchList(List, Ctx.ArchesFrom);
  if (!Archs)
    return Archs.takeError();
  Ctx.Archs = std::move(*Archs);
  return llvm::Error::success();
}

constexpr const char *NoGpuReason = "no CUDA device here";

bool haveCudaDevice() { return fs::exists("/dev/nvidia0") && fs::exists("/dev/nvidiactl"); }

/// A layer the run asked for by name must run: its skip is a failure.
void requireRan(LayerResult &L, const std::string &Why) {
  if (L.State != Status::Skip)
    return;
  L.State = Status::Fail;
  L.Reason = L.Reason + " (" + Why + ")";
  CheckResult Check = failed(L.Name + "-not-run", "layer " + L.Name + " did not run: " + L.Reason);
  L.Checks.push_back(std::move(Check));
}

LayerResult runLayer(const LayerInfo &Info, LayerContext &Ctx, bool HaveGpu,
                     std::vector<std::string> &Notes) {
  llvm::StringRef Name = Info.Name;
  if (needsUpstreamSource(Name)) {
    // Their upstream build and static checks run without a GPU too.
    if (!Ctx.Harness && Ctx.HarnessUnavailable.empty() && Ctx.Built)
      setUpHarness(Ctx, Notes);
    return runUpstreamLayer(Ctx, Info.Name, HaveGpu);
  }
  if (Info.NeedsGpu && !HaveGpu)
    return skippedLayer(Info.Name, NoGpuReason);
  if (Name == "build")
    return runBuildLayer(Ctx);
  if (!Ctx.Harness && Ctx.HarnessUnavailable.empty())
    setUpHarness(Ctx, Notes);
  if (Name == "import")
    return runImportLayer(Ctx);
  return runOpLayer(Ctx, Info.Name);
}

/// The names an op is called by in Python: its own (the binding's) and its
/// upstream function's, without the namespace.
std::vector<std::string> calledBy(const ManifestOp &Op) {
  std::vector<std::string> Names = {Op.Name};
  llvm::StringRef Upstream = Op.UpstreamFunction;
  if (size_t Colons = Upstream.rfind("::"); Colons != llvm::StringRef::npos)
    Upstream = Upstream.drop_front(Colons + 2);
  if (!Upstream.empty() && Upstream != Op.Name)
    Names.push_back(Upstream.str());
  return Names;
}

/// Reads the upstream tree's tests once for every layer's cases; a tree
/// whose tests cannot be read is a note, not a failure.
void readTests(LayerContext &Ctx) {
  if (Ctx.Toolchain.Python.empty()) {
    Ctx.note("the upstream tests were not read for shapes: no python3 here");
    return;
  }
  std::map<std::string, std::vector<std::string>> NamesOf;
  for (const ManifestOp &Op : Ctx.M.Ops)
    NamesOf[Op.Name] = calledBy(Op);
  llvm::Expected<UpstreamTests> Tests =
      readUpstreamTests(Ctx.Toolchain.Python, absoluteFromCwd(Ctx.Options.Source), NamesOf);
  if (!Tests) {
    Ctx.note("the upstream tests were not read for shapes: " + llvm::toString(Tests.takeError()));
    return;
  }
  for (const auto &[Op, Calls] : Tests->Ops)
    Ctx.progress("cases: " + std::to_string(Calls.Calls) + " call(s) of " + Op + " in " +
                 std::to_string(Tests->Files) + " upstream test file(s), " +
                 std::to_string(Calls.WithShapes) + " with shapes read");
  Ctx.Tests = std::move(*Tests);
}

} // namespace

std::string defaultBuildCacheDir() {
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    return *Xdg + "/opmig/validate";
  return llvm::sys::Process::GetEnv("HOME").value_or(".") + "/.cache/opmig/validate";
}

llvm::Expected<ValidationReport> validateDomain(const ValidateOptions &Options) {
  LayerContext Ctx(Options, absoluteFromCwd(Options.Target));
  if (!fs::is_directory(Ctx.Root))
    return inputError("the target '", Options.Target, "' is not a directory");
  for (const std::string &Name : Options.Layers)
    if (!findLayer(Name))
      return inputError("unknown validation layer '", Name, "'");
  if (llvm::Error E = locateManifest(Ctx, Options.Domain))
    return E;
  Ctx.Profile = Options.Profile.empty() ? Ctx.M.Profile : Options.Profile;
  if (!Options.Profile.empty() && Options.Profile != Ctx.M.Profile)
    return inputError("domain '", Options.Domain, "' was migrated with profile '", Ctx.M.Profile,
                      "' (", Ctx.ManifestPath, "), not '", Options.Profile, "'");
  if (llvm::Error E = chooseArchs(Ctx))
    return E;
  Ctx.Toolchain = findToolchain(Options.CudaPath, {});
  Ctx.Nvcc = findNvcc(Ctx.Toolchain.CudaPath);
  ValidationReport Report{Options.Target, Options.Domain, Ctx.Profile, Ctx.ManifestPath, {}, {}};
  Ctx.Notes = &Report.Notes;
  if (!Options.Source.empty())
    readTests(Ctx);
  bool HaveGpu = haveCudaDevice();
  Ctx.HaveGpu = HaveGpu;
  for (const LayerInfo &Info : allLayers()) {
    bool Asked = llvm::is_contained(Options.Layers, Info.Name);
    // Every later layer needs the build, reported or not.
    bool ByDefault = !needsUpstreamSource(Info.Name) || !Options.Source.empty();
    bool Needed =
        (Options.Layers.empty() && ByDefault) || Asked || llvm::StringRef(Info.Name) == "build";
    if (!Needed)
      continue;
    // Without a GPU, a GPU layer cannot run, implemented or not.
    bool GpuMissing = Info.NeedsGpu && Options.RequireGpu && !HaveGpu;
    LayerResult L = GpuMissing ? skippedLayer(Info.Name, NoGpuReason)
                               : runLayer(Info, Ctx, HaveGpu, Report.Notes);
    if (Asked)
      requireRan(L, "it was asked for by name");
    else if (GpuMissing)
      requireRan(L, "a GPU was required");
    if ((Options.Layers.empty() && ByDefault) || Asked)
      Report.Layers.push_back(std::move(L));
  }
  return Report;
}

} // namespace opmig::validate
