#include "opmig/analyze/ClosureVerifier.h"

#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUParser.h"
#include "opmig/support/CapturedOutput.h"
#include "opmig/support/CommandRunner.h"
#include "opmig/support/NvccCheck.h"
#include "opmig/support/ObjectCache.h"
#include "opmig/support/SourceFiles.h"
#include "opmig/support/SymbolTables.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <set>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;

namespace {

struct CompileJob {
  std::string RelativePath;
  std::string Label; ///< `host` or `device` (Clang), `nvcc`.
  std::vector<std::string> Args;
  std::string Object; ///< What `Args` writes.
  bool Linked = true; ///< False for a device compile (checked, not linked).
};

/// Runs `Args`, its output kept in `LogPath`, inside the scratch copy
/// that --keep-scratch keeps.
CommandRun runLogged(const std::vector<std::string> &Args, const std::string &LogPath) {
  CommandOptions Options;
  Options.LogPath = LogPath;
  return runCommand(Args, Options);
}

/// Compiles `C` (its output in `LogPath`), or takes its object from
/// `Objects` when the files it read are unchanged; its first error, empty
/// when it compiled.
std::string compileCached(const ObjectCache &Objects, const ObjectCompile &C,
                          const std::string &LogPath) {
  if (Objects.fetch(C))
    return "";
  CommandRun Run = runLogged(C.commandWritingInputs(), LogPath);
  if (Run.succeeded())
    Objects.store(C);
  return Run.firstError();
}

/// A Clang command line that compiles `Request` to `Object` instead of
/// checking its syntax.
std::vector<std::string> clangObjectCommand(const ParseRequest &Request,
                                            const std::string &Object) {
  std::vector<std::string> Args = parseCommandLine(Request);
  Args.front() = OPMIG_CLANG_EXECUTABLE;
  *std::find(Args.begin(), Args.end(), "-fsyntax-only") = "-c";
  Args.insert(Args.end() - 1, {"-fPIC", "-o", Object});
  return Args;
}

class Verifier {
public:
  Verifier(const AnalysisResult &Result, const VerifyOptions &Options)
      : Result(Result), Options(Options), Objects(Options.ObjectCacheDir) {}

  llvm::Expected<VerifyReport> run();

private:
  std::vector<std::string> copiedFiles() const;
  llvm::Expected<std::string> makeScratch(const std::vector<std::string> &Files) const;
  llvm::Error copySliced(const std::string &File, const std::string &To) const;
  std::vector<CompileJob> jobsFor(const std::string &Scratch,
                                  const std::vector<std::string> &Files) const;
  /// Compiles and links the given files in `Scratch`; fills `Report` when
  /// non-null. With `Reuse`, TUs outside `Rebuild` are not compiled again:
  /// their objects come from the earlier build in `Reuse`.
  bool build(const std::string &Scratch, const std::vector<std::string> &Files,
             VerifyReport *Report, const std::string &Reuse = "",
             const std::set<std::string> &Rebuild = {}) const;
  /// TUs among `Files` whose compile reads `Header` (through includes).
  std::set<std::string> tusIncluding(const std::string &Header,
                                     const std::vector<std::string> &Files) const;
  /// `Files` are the copied files that were built (the rest of the tree's
  /// TUs may provide what they lack).
  std::vector<std::string> linkProblems(const std::string &Library,
                                        const std::vector<std::string> &Files,
                                        const std::string &Scratch,
                                        std::string &LinkedAgainst) const;
  std::vector<std::string> missingSymbols(const std::set<std::string> &Undefined,
                                          const std::vector<std::string> &Files,
                                          const std::string &Scratch,
                                          std::string &LinkedAgainst) const;
  const RuntimeSymbols &runtime() const;

  const AnalysisResult &Result;
  const VerifyOptions &Options;
  ObjectCache Objects;
  mutable std::optional<RuntimeSymbols> Runtime; ///< Read once, for every trial.
};

std::vector<std::string> Verifier::copiedFiles() const {
  std::vector<std::string> Files;
  for (const ClosureFile &File : Result.Files)
    if (File.Role != FileRole::Registration)
      Files.push_back(File.Path);
  return Files;
}

/// Copies `File` as `migrate` ports it: its sibling definitions and the
/// includes only they use are blanked out, newlines kept so that
/// diagnostics keep their line numbers.
llvm::Error Verifier::copySliced(const std::string &File, const std::string &To) const {
  std::string From = Result.SourceRoot + "/" + File;
  std::vector<std::pair<unsigned, unsigned>> Blanks;
  if (auto It = Result.Siblings.find(File); It != Result.Siblings.end())
    for (const SiblingDefinition &S : It->second)
      if (S.End > S.Begin)
        Blanks.push_back({S.Begin, S.End});
  const ClosureFile *Closure = Result.file(File);
  static const std::vector<DroppedInclude> NoDrops;
  const std::vector<DroppedInclude> &Dropped = Closure ? Closure->DroppedIncludes : NoDrops;
  if (Blanks.empty() && Dropped.empty()) {
    if (std::error_code EC = fs::copy_file(From, To))
      return llvm::createStringError(EC, "cannot copy " + File + " to the scratch directory");
    return llvm::Error::success();
  }
  auto Buffer = llvm::MemoryBuffer::getFile(From);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read " + File);
  std::string Text = (*Buffer)->getBuffer().str();
  std::vector<size_t> LineStarts{0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
  for (const DroppedInclude &Include : Dropped)
    if (Include.Line >= 1 && Include.Line <= LineStarts.size())
      Blanks.push_back({LineStarts[Include.Line - 1],
                        Include.Line < LineStarts.size() ? LineStarts[Include.Line] : Text.size()});
  for (auto [Begin, End] : Blanks)
    for (size_t I = Begin; I < std::min<size_t>(End, Text.size()); ++I)
      if (Text[I] != '\n')
        Text[I] = ' ';
  std::error_code EC;
  llvm::raw_fd_ostream OS(To, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write " + To);
  OS << Text;
  return llvm::Error::success();
}

llvm::Expected<std::string> Verifier::makeScratch(const std::vector<std::string> &Files) const {
  llvm::SmallString<256> Scratch;
  if (std::error_code EC = fs::createUniqueDirectory("opmig-verify", Scratch))
    return llvm::createStringError(EC, "cannot create a scratch directory to build the closure in");
  for (const std::string &File : Files) {
    std::string To = (Scratch + "/" + File).str();
    if (std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(To)))
      return llvm::createStringError(EC, "cannot create " + To);
    if (llvm::Error Err = copySliced(File, To))
      return Err;
  }
  // Submodules are external: linked in place, where the remapped flags look.
  for (const std::string &Dir : Result.SubmoduleDirs) {
    std::string From = Result.SourceRoot + "/" + Dir, To = (Scratch + "/" + Dir).str();
    if (!fs::is_directory(From))
      continue;
    if (std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(To)))
      return llvm::createStringError(EC, "cannot create " + To);
    if (std::error_code EC = fs::create_link(From, To))
      return llvm::createStringError(EC, "cannot link submodule " + Dir + " into the scratch copy");
  }
  return std::string(Scratch);
}

std::vector<CompileJob> Verifier::jobsFor(const std::string &Scratch,
                                          const std::vector<std::string> &Files) const {
  std::vector<CompileJob> Jobs;
  for (const std::string &File : Files) {
    auto Flags = Result.TUFlags.find(File);
    if (Flags == Result.TUFlags.end())
      continue;
    // Include paths into the tree now point into the scratch copy.
    std::vector<std::string> ScratchFlags;
    for (std::string Flag : Flags->second) {
      for (size_t At = Flag.find(Result.SourceRoot); At != std::string::npos;
           At = Flag.find(Result.SourceRoot, At + Scratch.size()))
        Flag.replace(At, Result.SourceRoot.size(), Scratch);
      ScratchFlags.push_back(std::move(Flag));
    }
    std::string MainFile = Scratch + "/" + File;
    if (!Options.Nvcc.empty()) {
      NvccCheckRequest Request{
          Options.Nvcc,   MainFile,          ScratchFlags,   Result.nvccFlagsOf(File),
          Result.GpuArch, NvccStage::Object, MainFile + ".o"};
      Jobs.push_back({File, "nvcc", nvccCheckCommand(Request), Request.ObjectFile});
      continue;
    }
    std::vector<ParseSide> Sides = {ParseSide::Host};
    if (isCudaSource(File))
      Sides.push_back(ParseSide::Device);
    for (ParseSide Side : Sides) {
      ParseRequest Request;
      Request.MainFile = MainFile;
      Request.Flags = ScratchFlags;
      Request.Side = Side;
      Request.GpuArch = Result.GpuArch;
      std::string Object = MainFile + "." + toString(Side) + ".o";
      Jobs.push_back({File, toString(Side), clangObjectCommand(Request, Object), Object,
                      Side == ParseSide::Host});
    }
  }
  return Jobs;
}

bool Verifier::build(const std::string &Scratch, const std::vector<std::string> &Files,
                     VerifyReport *Report, const std::string &Reuse,
                     const std::set<std::string> &Rebuild) const {
  std::vector<CompileJob> Jobs = jobsFor(Scratch, Files);
  std::vector<std::string> LinkArgs = {OPMIG_CLANG_EXECUTABLE, "-shared", "-o",
                                       Scratch + "/libclosure.so"};
  if (!Reuse.empty()) {
    llvm::erase_if(Jobs, [&](const CompileJob &Job) {
      if (Rebuild.count(Job.RelativePath))
        return false;
      if (Job.Linked)
        LinkArgs.push_back(Reuse + Job.Object.substr(Scratch.size()));
      return true;
    });
  }
  std::vector<std::string> Errors(Jobs.size()); ///< Empty for a TU that compiled.
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Options.Jobs));
    for (size_t I = 0; I < Jobs.size(); ++I)
      Pool.async([&, I] {
        Errors[I] = compileCached(Objects, {Jobs[I].Args, Scratch, Jobs[I].Object},
                                  Scratch + "/compile-" + std::to_string(I) + ".log");
      });
  }
  bool Compiles = true;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (!Errors[I].empty()) {
      Compiles = false;
      // Paths in the message are the scratch copy's: show them tree-relative.
      std::string Error = Errors[I];
      for (size_t At; (At = Error.find(Scratch + "/")) != std::string::npos;)
        Error.erase(At, Scratch.size() + 1);
      if (Report)
        Report->CompileFailures.push_back(Jobs[I].RelativePath + " (" + Jobs[I].Label +
                                          "): " + Error);
    } else if (Jobs[I].Linked) {
      LinkArgs.push_back(Jobs[I].Object);
    }
  }
  if (Report)
    Report->Compiles = Compiles;
  if (!Compiles)
    return false;
  // A closure without objects (header-only, or a trial that dropped the
  // only TU) has nothing to link, but must still define its entries.
  bool HasObjects = LinkArgs.size() > 4;
  std::string LinkError; ///< Empty when it linked, or had nothing to link.
  if (HasObjects)
    LinkError = runLogged(LinkArgs, Scratch + "/link.log").firstError();
  std::vector<std::string> Undefined;
  std::string LinkedAgainst;
  if (LinkError.empty())
    Undefined =
        linkProblems(HasObjects ? Scratch + "/libclosure.so" : "", Files, Scratch, LinkedAgainst);
  bool Links = LinkError.empty() && Undefined.empty();
  if (Report) {
    Report->Links = Links;
    Report->LinkedAgainst = std::move(LinkedAgainst);
    Report->UndefinedSymbols = std::move(Undefined);
    if (!LinkError.empty())
      Report->UndefinedSymbols.push_back("link failed: " + LinkError);
  }
  return Links;
}

std::set<std::string> Verifier::tusIncluding(const std::string &Header,
                                             const std::vector<std::string> &Files) const {
  std::map<std::string, std::vector<std::string>> Includers;
  for (const ClosureFile &File : Result.Files)
    for (const std::string &By : File.IncludedBy)
      Includers[File.Path].push_back(By);
  std::set<std::string> Reached;
  std::vector<std::string> Stack = {Header};
  while (!Stack.empty()) {
    std::string Current = Stack.back();
    Stack.pop_back();
    for (const std::string &By : Includers[Current])
      if (Reached.insert(By).second)
        Stack.push_back(By);
  }
  std::set<std::string> TUs;
  for (const std::string &File : Files)
    if (Reached.count(File) && Result.TUFlags.count(File))
      TUs.insert(File);
  return TUs;
}

/// The words a TU providing `Mangled` is likely to mention: its own name and
/// its class's (`run`, `AxpyLauncher` for `tl::AxpyLauncher<float>::run`).
std::vector<std::string> namesOf(const std::string &Mangled) {
  std::string Qualified = qualifiedNameOf(Mangled);
  llvm::SmallVector<llvm::StringRef> Parts;
  // Template arguments hold `::` too; drop them first.
  std::string Plain;
  for (int Depth = 0; char C : Qualified) {
    Depth += C == '<' ? 1 : C == '>' ? -1 : 0;
    if (Depth == 0 && C != '>')
      Plain += C;
  }
  llvm::StringRef(Plain).split(Parts, "::", -1, /*KeepEmpty=*/false);
  std::vector<std::string> Names;
  for (llvm::StringRef Part : llvm::reverse(Parts))
    if (Names.size() < 2)
      Names.push_back(Part.str());
  return Names;
}

/// Tree TUs by relative path, with their flags.
using FlagsByFile = std::map<std::string, std::vector<std::string>>;

/// Compiles a tree TU to a host object, only for the symbols it defines:
/// with nvcc (device code only to PTX, at -O0) or with Clang.
struct HostCompiler {
  std::string Nvcc; ///< Empty: Clang.
  std::vector<std::string> NvccFlags;
  std::string GpuArch;

  std::vector<std::string> command(const std::string &MainFile,
                                   const std::vector<std::string> &Flags,
                                   const std::string &Object) const {
    if (!Nvcc.empty())
      return nvccCheckCommand(
          {Nvcc, MainFile, Flags, NvccFlags, GpuArch, NvccStage::HostObject, Object});
    ParseRequest Request;
    Request.MainFile = MainFile;
    Request.Flags = Flags;
    return clangObjectCommand(Request, Object);
  }
};

/// The symbols each of `Files` (tree TUs, compiled in place into `Scratch`)
/// defines.
std::vector<SymbolTable> compileForSymbols(const std::vector<std::string> &Files,
                                           const FlagsByFile &Flags, const std::string &SourceRoot,
                                           const std::string &Scratch, const HostCompiler &Compiler,
                                           const ObjectCache &Objects, unsigned Jobs) {
  std::vector<SymbolTable> Tables(Files.size());
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async([&, I] {
      std::string Stem = Scratch + "/provider-" + llvm::utohexstr(llvm::xxh3_64bits(Files[I]));
      ObjectCompile C{
          Compiler.command(SourceRoot + "/" + Files[I], Flags.at(Files[I]), Stem + ".o"),
          SourceRoot, Stem + ".o"};
      if (compileCached(Objects, C, Stem + ".log").empty())
        readSymbols(C.Object, Tables[I]);
    });
  Pool.wait();
  return Tables;
}

/// Which of `Candidates` (tree TUs that were not linked) defines each of
/// `Missing`. Runs only when something is missing: first the TUs whose text
/// names a missing symbol or its class, then, for what is still unexplained
/// (an instantiation made by a macro names neither), every other one.
std::map<std::string, std::string>
providersOf(const std::set<std::string> &Missing, const FlagsByFile &Candidates,
            const std::string &SourceRoot, const std::string &Scratch, const HostCompiler &Compiler,
            const ObjectCache &Objects, unsigned Jobs) {
  std::set<std::string> Names;
  for (const std::string &Symbol : Missing)
    for (std::string &Name : namesOf(Symbol))
      Names.insert(std::move(Name));
  std::vector<std::string> Likely, Rest;
  for (const auto &[File, Flags] : Candidates) {
    auto Text = llvm::MemoryBuffer::getFile(SourceRoot + "/" + File);
    bool Mentions = Text && llvm::any_of(Names, [&](const std::string &Name) {
                      return (*Text)->getBuffer().contains(Name);
                    });
    (Mentions ? Likely : Rest).push_back(File);
  }
  std::map<std::string, std::string> Providers;
  for (const std::vector<std::string> *Round : {&Likely, &Rest}) {
    if (Providers.size() == Missing.size())
      break;
    std::vector<SymbolTable> Tables =
        compileForSymbols(*Round, Candidates, SourceRoot, Scratch, Compiler, Objects, Jobs);
    for (size_t I = 0; I < Round->size(); ++I)
      for (const std::string &Symbol : Missing)
        if (Tables[I].Defined.count(Symbol))
          Providers.try_emplace(Symbol, (*Round)[I]);
  }
  return Providers;
}

/// Symbols the linked closure leaves undefined that nothing it is loaded
/// with defines, each named with the left-behind TU that defines it when one
/// does; and entries it does not define (a library that links because the
/// entry's TU is gone proves nothing). An empty `Library` stands for a
/// closure with no objects.
std::vector<std::string> Verifier::linkProblems(const std::string &Library,
                                                const std::vector<std::string> &Files,
                                                const std::string &Scratch,
                                                std::string &LinkedAgainst) const {
  SymbolTable Closure;
  if (!Library.empty() && !readSymbols(Library, Closure))
    return {"cannot read the linked closure library"};
  std::vector<std::string> Problems;
  if (!Closure.Undefined.empty())
    Problems = missingSymbols(Closure.Undefined, Files, Scratch, LinkedAgainst);
  std::set<std::string> Defined;
  for (const std::string &Symbol : Closure.Defined)
    Defined.insert(qualifiedNameOf(Symbol));
  for (const ResolvedEntry &Entry : Result.Entries)
    if (isTranslationUnitName(Entry.Loc.File) && !Defined.count(Entry.Function))
      Problems.push_back("entry not defined: " + Entry.Function);
  return Problems;
}

const RuntimeSymbols &Verifier::runtime() const {
  if (!Runtime)
    Runtime = loadRuntimeSymbols({Result.Torch.LibDir, Result.Torch.Version, Result.CudaPath,
                                  OPMIG_CLANG_EXECUTABLE,
                                  "only symbols that the tree's own TUs define count as missing"});
  return *Runtime;
}

std::vector<std::string> Verifier::missingSymbols(const std::set<std::string> &Undefined,
                                                  const std::vector<std::string> &Files,
                                                  const std::string &Scratch,
                                                  std::string &LinkedAgainst) const {
  LinkedAgainst = runtime().Description;
  std::set<std::string> Missing;
  for (const std::string &Symbol : Undefined)
    if (!runtime().provides(Symbol))
      Missing.insert(Symbol);
  if (Missing.empty())
    return {};
  // Every tree TU that was not linked: those left behind, and closure TUs a
  // --verify-minimal trial dropped.
  FlagsByFile Candidates = Result.OtherTUFlags;
  for (const auto &[File, Flags] : Result.TUFlags)
    if (!llvm::is_contained(Files, File))
      Candidates.emplace(File, Flags);
  std::map<std::string, std::string> Providers =
      providersOf(Missing, Candidates, Result.SourceRoot, Scratch,
                  {Options.Nvcc, Result.UpstreamNvccFlags, Result.GpuArch}, Objects, Options.Jobs);
  // Without torch's libraries a torch symbol is indistinguishable from a
  // tree symbol the closure lost: only the tree's own definitions count.
  if (!runtime().HasTorch)
    std::erase_if(Missing, [&](const std::string &S) { return !Providers.count(S); });
  std::vector<std::string> Problems;
  for (const std::string &Symbol : Missing) {
    auto Provider = Providers.find(Symbol);
    Problems.push_back(demangleSymbol(Symbol) + (Provider == Providers.end()
                                                     ? " (defined by no TU of the tree)"
                                                     : " (defined by " + Provider->second + ")"));
  }
  return Problems;
}

llvm::Expected<VerifyReport> Verifier::run() {
  VerifyReport Report;
  Report.Ran = true;
  Report.Compiler = Options.Nvcc.empty() ? "clang" : "nvcc";
  Report.CompilerPath = Options.Nvcc.empty() ? OPMIG_CLANG_EXECUTABLE : Options.Nvcc;
  Report.CompilerNote = Options.Nvcc.empty() ? Options.ClangBecause : "";
  std::vector<std::string> Files = copiedFiles();
  auto Scratch = makeScratch(Files);
  if (!Scratch)
    return Scratch.takeError();
  build(*Scratch, Files, &Report);
  if (Options.Minimal && Report.Compiles && Report.Links) {
    Report.MinimalityChecked = true;
    for (const std::string &Dropped : Files) {
      std::vector<std::string> Fewer;
      for (const std::string &File : Files)
        if (File != Dropped)
          Fewer.push_back(File);
      auto Trial = makeScratch(Fewer);
      if (!Trial)
        return Trial.takeError();
      // Only the TUs that read the dropped file compile again.
      if (build(*Trial, Fewer, nullptr, *Scratch, tusIncluding(Dropped, Fewer)))
        Report.UnneededFiles.push_back(Dropped);
      fs::remove_directories(*Trial);
    }
  }
  if (Options.KeepScratch)
    Report.ScratchDir = *Scratch;
  else
    fs::remove_directories(*Scratch);
  return Report;
}

} // namespace

llvm::Expected<VerifyReport> verifyClosure(const AnalysisResult &Result,
                                           const VerifyOptions &Options) {
  return Verifier(Result, Options).run();
}

} // namespace opmig::analyze
