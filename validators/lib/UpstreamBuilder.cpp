//===- UpstreamBuilder.cpp - The upstream library, built and cached -------===//
//
// As ExtensionBuild.cpp compiles a cache-dit extension: each TU with nvcc
// (`.cu`, and the registration TU, which includes the upstream's header) or
// the host compiler, with torch's headers and BuildExtension's nvcc flags,
// then one shared library linked against torch's libraries.
//
//===----------------------------------------------------------------------===//

#include "UpstreamBuilder.h"

#include "BuildCache.h"
#include "ChildProcess.h"
#include "DomainBuilders.h"
#include "DomainNames.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/Paths.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/validate/FirstError.h"
#include "opmig/validate/LeftOutBlanking.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>

namespace opmig::validate {

namespace {

namespace fs = llvm::sys::fs;

constexpr const char *RegistrationFile = "upstream_registration.cu";

std::string hostCompiler() {
  for (llvm::StringRef Name : {"c++", "g++"})
    if (llvm::ErrorOr<std::string> Path = llvm::sys::findProgramByName(Name))
      return *Path;
  return "";
}

/// The nvcc flags of the first `.cu` entry of a CMake build's compile
/// database.
std::vector<std::string> compileDatabaseNvccFlags(const std::string &Dir) {
  auto Buffer = llvm::MemoryBuffer::getFile(Dir + "/compile_commands.json");
  if (!Buffer)
    return {};
  llvm::Expected<nlohmann::json> Database =
      parseJsonText((*Buffer)->getBuffer(), "compile_commands.json");
  if (!Database) {
    llvm::consumeError(Database.takeError());
    return {};
  }
  for (const nlohmann::json &Entry : *Database) {
    std::string File = Entry.value("file", std::string());
    if (!isCudaSource(File) || !Entry.contains("command"))
      continue;
    llvm::BumpPtrAllocator Allocator;
    llvm::StringSaver Saver(Allocator);
    llvm::SmallVector<const char *> Tokens;
    llvm::cl::TokenizeGNUCommandLine(Entry["command"].get<std::string>(), Saver, Tokens);
    std::vector<std::string> Flags;
    for (const char *Token : llvm::drop_begin(Tokens))
      Flags.push_back(Token);
    return Flags;
  }
  return {};
}

std::vector<std::string> commonFlags(const LayerContext &Ctx, const UpstreamPlan &Plan) {
  std::vector<std::string> Flags;
  for (const std::string &Dir : Plan.IncludeDirs)
    Flags.push_back("-I" + Dir);
  for (const std::string &Dir : Ctx.Toolchain.Torch.IncludeDirs)
    Flags.push_back("-I" + Dir);
  if (!Ctx.Toolchain.CudaPath.empty())
    Flags.push_back("-I" + Ctx.Toolchain.CudaPath + "/include");
  if (!Ctx.Toolchain.PythonIncludeDir.empty())
    Flags.push_back("-I" + Ctx.Toolchain.PythonIncludeDir);
  Flags.push_back("-DTORCH_API_INCLUDE_EXTENSION_H");
  llvm::append_range(Flags, Plan.CommonFlags);
  return Flags;
}

/// The flags a `.cu` compile gets besides the include dirs: torch's and
/// the upstream's.
std::vector<std::string> upstreamNvccFlags(const UpstreamPlan &Plan) {
  std::vector<std::string> Flags = torchNvccFlags();
  llvm::append_range(Flags, Plan.CommonFlags);
  llvm::append_range(Flags, Plan.NvccFlags);
  return Flags;
}

/// A TU to compile: the upstream file, or the copy of it with what migrate
/// left out blanked, whose quote includes resolve from `QuoteDir` (the
/// original's folder) as the original's do.
struct SourceToCompile {
  std::string Path;
  std::string QuoteDir;
};

std::vector<std::string> compileCommand(const LayerContext &Ctx, const UpstreamPlan &Plan,
                                        const SourceToCompile &Source, const std::string &Object,
                                        const std::string &Host) {
  bool Cuda = isCudaSource(Source.Path);
  std::vector<std::string> Command = {Cuda ? Ctx.Nvcc : Host, "-c", Source.Path, "-o", Object};
  if (!Source.QuoteDir.empty()) {
    // nvcc has no -iquote; the host preprocessor it runs for both sides does.
    if (Cuda)
      Command.insert(Command.end(), {"-Xcompiler", "-iquote", "-Xcompiler", Source.QuoteDir});
    else
      Command.insert(Command.end(), {"-iquote", Source.QuoteDir});
  }
  llvm::append_range(Command, commonFlags(Ctx, Plan));
  if (Cuda) {
    llvm::append_range(Command, torchNvccFlags());
    Command.insert(Command.end(), {"--compiler-options", "-fPIC"});
    llvm::append_range(Command, Plan.NvccFlags);
    return Command;
  }
  Command.push_back("-fPIC");
  // The host compiler takes the host half of the codegen flags.
  for (const std::string &Flag : Plan.NvccFlags)
    if (llvm::StringRef(Flag).starts_with("-O") || Flag == "-DNDEBUG")
      Command.push_back(Flag);
  return Command;
}

struct Compiled {
  SourceToCompile Source;
  std::string Object;
  ChildOutcome Run;
};

std::vector<Compiled> compileAll(const LayerContext &Ctx, const UpstreamPlan &Plan,
                                 const std::vector<SourceToCompile> &Sources,
                                 const std::string &Dir, const std::string &Host) {
  std::vector<Compiled> Results(Sources.size());
  ObjectCache Cache(Ctx.buildCacheDir() + "/objects");
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Ctx.Options.Jobs));
  for (size_t I = 0; I < Sources.size(); ++I) {
    Results[I].Source = Sources[I];
    Results[I].Object = Dir + "/obj/" + std::to_string(I) + "-" +
                        llvm::sys::path::filename(Sources[I].Path).str() + ".o";
    Pool.async([&, I] {
      ObjectCompile C{compileCommand(Ctx, Plan, Results[I].Source, Results[I].Object, Host),
                      Plan.SourceRoot, Results[I].Object};
      bool Reused = false;
      Results[I].Run = compileObject(Cache, C, BuildStepTimeoutSeconds, Reused);
    });
  }
  Pool.wait();
  return Results;
}

ChildOutcome link(const LayerContext &Ctx, const std::vector<Compiled> &Objects,
                  const std::string &Library, const std::string &Host) {
  std::vector<std::string> Command = {Host, "-shared", "-o", Library};
  for (const Compiled &O : Objects)
    Command.push_back(O.Object);
  Command.push_back("-L" + Ctx.Toolchain.Torch.LibDir);
  if (!Ctx.Toolchain.CudaPath.empty())
    Command.push_back("-L" + Ctx.Toolchain.CudaPath + "/lib64");
  llvm::append_range(Command, torchLinkFlags());
  return runChild(Command, {}, "", BuildStepTimeoutSeconds);
}

llvm::Error writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write %s", Path.c_str());
  OS << Text;
  return llvm::Error::success();
}

/// What to compile for the upstream TU `Source`: the file itself, or,
/// when migrate left part of it out, a copy under `Dir/left-out/` with
/// those stretches blanked.
llvm::Expected<SourceToCompile> sourceToCompile(const UpstreamPlan &Plan, const std::string &Source,
                                                const std::string &Dir) {
  std::string Original = Plan.SourceRoot + "/" + Source;
  auto LeftOut = Plan.LeftOut.find(Source);
  if (LeftOut == Plan.LeftOut.end())
    return SourceToCompile{Original, ""};
  auto Text = llvm::MemoryBuffer::getFile(Original);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read %s", Original.c_str());
  llvm::Expected<std::string> Blanked = blankLeftOut((*Text)->getBuffer(), LeftOut->second, Source);
  if (!Blanked)
    return Blanked.takeError();
  std::string Copy = Dir + "/left-out/" + Source;
  if (std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(Copy)))
    return llvm::createStringError(EC, "cannot create the folder of %s", Copy.c_str());
  if (llvm::Error E = writeFile(Copy, *Blanked))
    return E;
  return SourceToCompile{Copy, llvm::sys::path::parent_path(Original).str()};
}

/// Compiles and links into `Dir`; the library, or a failed check.
std::string compileAndLink(const LayerContext &Ctx, const UpstreamPlan &Plan,
                           const std::string &Registration, const std::string &Dir,
                           std::vector<CheckResult> &Checks) {
  std::string Host = hostCompiler();
  if (Host.empty()) {
    Checks.push_back(skipped("upstream-build", "no host C++ compiler (c++ or g++) on PATH"));
    return "";
  }
  if (std::error_code EC = fs::create_directories(Dir + "/obj")) {
    Checks.push_back(failed("upstream-build", "cannot create " + Dir + "/obj: " + EC.message()));
    return "";
  }
  if (llvm::Error E = writeFile(Dir + "/" + RegistrationFile, Registration)) {
    Checks.push_back(failed("upstream-build", llvm::toString(std::move(E))));
    return "";
  }
  std::vector<SourceToCompile> Sources;
  for (const std::string &Source : Plan.Sources) {
    llvm::Expected<SourceToCompile> ToCompile = sourceToCompile(Plan, Source, Dir);
    if (!ToCompile) {
      Checks.push_back(failed("upstream-build", llvm::toString(ToCompile.takeError())));
      return "";
    }
    Sources.push_back(std::move(*ToCompile));
  }
  Sources.push_back({Dir + "/" + RegistrationFile, ""});
  Ctx.progress("upstream: compiling " + std::to_string(Sources.size()) + " sources of " +
               Plan.SourceRoot);
  std::vector<Compiled> Objects = compileAll(Ctx, Plan, Sources, Dir, Host);
  for (const Compiled &C : Objects)
    if (!C.Run.succeeded()) {
      std::string Why =
          C.Run.How == ChildOutcome::Kind::Exited
              ? firstBuildError(C.Run.Stdout + "\n" + C.Run.Stderr, Plan.SourceRoot).summary()
              : C.Run.describe();
      Checks.push_back(failed(
          "upstream-build", "the upstream closure does not build: " + C.Source.Path + ": " + Why));
      return "";
    }
  std::string Library = Dir + "/lib" + Plan.Namespace + ".so";
  ChildOutcome Linked = link(Ctx, Objects, Library, Host);
  if (!Linked.succeeded()) {
    Checks.push_back(failed("upstream-build", "the upstream library does not link: " +
                                                  Linked.describe() + ": " + Linked.stderrTail()));
    return "";
  }
  return Library;
}

std::string toolchainIdentity(const LayerContext &Ctx) {
  return Ctx.Toolchain.Torch.Version + " " + Ctx.Toolchain.Torch.LibDir + " " + Ctx.Nvcc + " " +
         hostCompiler() + " " + Ctx.Toolchain.PythonIncludeDir;
}

void addFigures(CheckResult &Check, const UpstreamBuilt &U, const std::string &Key,
                const std::string &Dir, bool Reused, double Seconds) {
  nlohmann::ordered_json &F = Check.Figures;
  F["source"] = U.Plan->SourceRoot;
  F["namespace"] = U.Plan->Namespace;
  F["flags"] = U.UpstreamNvcc;
  F["flags_from"] = U.Plan->FlagsFrom;
  F["include_dirs"] = U.Plan->IncludeDirs;
  F["key"] = Key;
  F["build_dir"] = Dir;
  F["reused"] = Reused;
  F["seconds"] = Seconds;
  if (!U.Library.empty())
    F["library"] = U.Library;
  // What migrate left out, and so what the build blanked, per file.
  nlohmann::ordered_json LeftOut = nlohmann::ordered_json::object();
  for (const auto &[File, Ranges] : U.Plan->LeftOut)
    for (const LeftOutRange &R : Ranges) {
      nlohmann::ordered_json One = {{"first_line", R.FirstLine}, {"last_line", R.LastLine}};
      if (R.Include.empty())
        One["definitions"] = R.Definitions;
      else
        One["include"] = R.Include;
      LeftOut[File].push_back(std::move(One));
    }
  if (!LeftOut.empty())
    F["left_out"] = std::move(LeftOut);
}

/// How many TUs were compiled as they are, and what was blanked in the others.
std::string sourcesBuilt(const UpstreamPlan &Plan) {
  std::vector<std::string> Blanked;
  for (const std::string &Source : Plan.Sources)
    if (auto It = Plan.LeftOut.find(Source); It != Plan.LeftOut.end())
      Blanked.push_back(Source + " less what migrate left out: " + describeLeftOut(It->second));
  size_t Unchanged = Plan.Sources.size() - Blanked.size();
  std::string Text = std::to_string(Unchanged) + " upstream TU(s) unchanged";
  if (!Blanked.empty())
    Text += ", " + llvm::join(Blanked, "; ") + ",";
  return Text;
}

void build(LayerContext &Ctx, UpstreamBuilt &U) {
  U.MigratedNvcc = migratedNvccFlags(Ctx);
  llvm::Expected<UpstreamPlan> Plan =
      planUpstreamBuild(Ctx.M, absoluteFromCwd(Ctx.Options.Source), opNamespace(Ctx), Ctx.Archs,
                        Ctx.Options.UpstreamFlags, U.MigratedNvcc);
  if (!Plan) {
    U.Checks.push_back(failed("upstream-plan", llvm::toString(Plan.takeError())));
    return;
  }
  U.Plan = std::move(*Plan);
  U.UpstreamNvcc = upstreamNvccFlags(*U.Plan);
  llvm::Expected<std::string> Registration =
      upstreamRegistrationSource(U.Plan->Namespace, U.Plan->Entries);
  if (!Registration) {
    U.Checks.push_back(failed("upstream-registration", llvm::toString(Registration.takeError())));
    return;
  }
  std::string KeyText = upstreamBuildKeyText(*U.Plan, *Registration, toolchainIdentity(Ctx));
  std::string Key = sha256Hex(KeyText).substr(0, 16);
  llvm::Expected<std::unique_ptr<BuildSlot>> Slot = BuildSlot::acquire(
      Ctx.buildCacheDir(), "upstream-" + Ctx.Profile + "-" + Ctx.M.Domain + "-" + Key);
  if (!Slot) {
    U.Checks.push_back(failed("upstream-build", llvm::toString(Slot.takeError())));
    return;
  }
  std::string Dir = (*Slot)->dir();
  auto Start = std::chrono::steady_clock::now();
  bool Reused = false;
  if (std::optional<std::string> Library = (*Slot)->finishedLibrary()) {
    Ctx.progress("upstream: up to date in " + Dir);
    U.Library = *Library;
    Reused = true;
  } else if (!Ctx.Options.Build) {
    U.Checks.push_back(
        skipped("upstream-build", "no up-to-date upstream build, and building was turned off"));
    return;
  } else if (llvm::Error E = (*Slot)->clear()) {
    U.Checks.push_back(failed("upstream-build", llvm::toString(std::move(E))));
    return;
  } else {
    U.Library = compileAndLink(Ctx, *U.Plan, *Registration, Dir, U.Checks);
    if (!U.Library.empty())
      if (llvm::Error E = (*Slot)->finish(U.Library, KeyText))
        U.Checks.push_back(failed("upstream-build", llvm::toString(std::move(E))));
  }
  if (U.Library.empty())
    return;
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  CheckResult Built = passed(
      "upstream-build", std::string(Reused ? "up to date: " : "built ") + sourcesBuilt(*U.Plan) +
                            " and the registration of " + std::to_string(U.Plan->Entries.size()) +
                            " entry(ies) under " + U.Plan->Namespace);
  addFigures(Built, U, Key, Dir, Reused, Seconds);
  U.Checks.push_back(std::move(Built));
}

} // namespace

std::vector<std::string> migratedNvccFlags(const LayerContext &Ctx) {
  if (!Ctx.Built)
    return {};
  if (Ctx.Built->Plan.Kind == BuildKind::CMakeProject)
    return compileDatabaseNvccFlags(Ctx.Built->BuildDir);
  std::vector<std::string> Flags = torchNvccFlags();
  llvm::append_range(Flags, Ctx.Built->Plan.Extension.NvccFlags);
  return Flags;
}

const UpstreamBuilt &upstreamBuild(LayerContext &Ctx) {
  if (!Ctx.Upstream) {
    Ctx.Upstream = std::make_shared<UpstreamBuilt>();
    build(Ctx, *Ctx.Upstream);
  }
  return *Ctx.Upstream;
}

} // namespace opmig::validate
