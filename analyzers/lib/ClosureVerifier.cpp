#include "opmig/analyze/ClosureVerifier.h"

#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <map>
#include <set>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;

namespace {

struct CompileJob {
  std::string RelativePath;
  ParseSide Side = ParseSide::Host;
  std::vector<std::string> Args;
  std::string Object; ///< Empty for a device compile (checked, not linked).
};

struct RunResult {
  bool Ok = false;
  std::string FirstError;
};

/// Runs `Args` (argv[0] is resolved on PATH or taken as a path) and keeps
/// the first error line of its output.
RunResult runCommand(const std::vector<std::string> &Args, const std::string &LogPath) {
  llvm::SmallVector<llvm::StringRef> Argv(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(LogPath),
                                                llvm::StringRef(LogPath)};
  std::string ExecError;
  int Code =
      llvm::sys::ExecuteAndWait(Args.front(), Argv, std::nullopt, Redirects, 0, 0, &ExecError);
  RunResult Result{Code == 0, ExecError};
  if (Result.Ok || !Result.FirstError.empty())
    return Result;
  if (auto Log = llvm::MemoryBuffer::getFile(LogPath)) {
    llvm::SmallVector<llvm::StringRef> Lines;
    (*Log)->getBuffer().split(Lines, '\n');
    for (llvm::StringRef Line : Lines)
      if (Line.contains("error")) {
        Result.FirstError = Line.trim().str();
        break;
      }
  }
  if (Result.FirstError.empty())
    Result.FirstError = "exit code " + std::to_string(Code);
  return Result;
}

/// `ns::f` for a function symbol (kernel host stubs map to their kernel),
/// the demangled text otherwise.
std::string qualifiedNameOf(llvm::StringRef Mangled) {
  // The demangler keeps pointing into the string it was given.
  std::string Text = Mangled.str();
  llvm::ItaniumPartialDemangler Demangler;
  if (Demangler.partialDemangle(Text.c_str()))
    return Text;
  if (!Demangler.isFunction()) {
    char *Full = Demangler.finishDemangle(nullptr, nullptr);
    std::string Name = Full ? Full : Text;
    std::free(Full);
    return Name;
  }
  size_t Size = 0;
  char *Context = Demangler.getFunctionDeclContextName(nullptr, &Size);
  char *Base = Demangler.getFunctionBaseName(nullptr, &Size);
  std::string Name = Context && *Context ? std::string(Context) + "::" : "";
  llvm::StringRef BaseName = Base ? Base : "";
  BaseName.consume_front("__device_stub__");
  Name += BaseName.str();
  std::free(Context);
  std::free(Base);
  return Name;
}

class Verifier {
public:
  Verifier(AnalysisResult &Result, const VerifyOptions &Options)
      : Result(Result), Options(Options) {}

  llvm::Error run();

private:
  std::vector<std::string> copiedFiles() const;
  llvm::Expected<std::string> makeScratch(const std::vector<std::string> &Files) const;
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
  std::vector<std::string> linkProblems(const std::string &Library) const;

  AnalysisResult &Result;
  const VerifyOptions &Options;
};

std::vector<std::string> Verifier::copiedFiles() const {
  std::vector<std::string> Files;
  for (const ClosureFile &File : Result.Files)
    if (File.Role != FileRole::Registration)
      Files.push_back(File.Path);
  return Files;
}

llvm::Expected<std::string> Verifier::makeScratch(const std::vector<std::string> &Files) const {
  llvm::SmallString<256> Scratch;
  if (std::error_code EC = fs::createUniqueDirectory("opmig-verify", Scratch))
    return llvm::createStringError(EC, "cannot create a scratch directory for --verify");
  for (const std::string &File : Files) {
    std::string To = (Scratch + "/" + File).str();
    if (std::error_code EC = fs::create_directories(llvm::sys::path::parent_path(To)))
      return llvm::createStringError(EC, "cannot create " + To);
    if (std::error_code EC = fs::copy_file(Result.SourceRoot + "/" + File, To))
      return llvm::createStringError(EC, "cannot copy " + File + " to the scratch directory");
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
    ParseRequest Request;
    Request.MainFile = Scratch + "/" + File;
    Request.GpuArch = Result.GpuArch;
    // Include paths into the tree now point into the scratch copy.
    for (std::string Flag : Flags->second) {
      for (size_t At = Flag.find(Result.SourceRoot); At != std::string::npos;
           At = Flag.find(Result.SourceRoot, At + Scratch.size()))
        Flag.replace(At, Result.SourceRoot.size(), Scratch);
      Request.Flags.push_back(std::move(Flag));
    }
    std::vector<ParseSide> Sides = {ParseSide::Host};
    if (isCudaSource(File))
      Sides.push_back(ParseSide::Device);
    for (ParseSide Side : Sides) {
      Request.Side = Side;
      CompileJob Job{File, Side, parseCommandLine(Request), ""};
      Job.Args.front() = OPMIG_CLANG_EXECUTABLE;
      Job.Object = Scratch + "/" + File + "." + toString(Side) + ".o";
      auto SyntaxOnly = std::find(Job.Args.begin(), Job.Args.end(), "-fsyntax-only");
      *SyntaxOnly = "-c";
      Job.Args.insert(Job.Args.end() - 1, {"-fPIC", "-o", Job.Object});
      if (Side == ParseSide::Device)
        Job.Object.clear();
      Jobs.push_back(std::move(Job));
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
      if (Job.Side == ParseSide::Host)
        LinkArgs.push_back(Reuse + "/" + Job.RelativePath + ".host.o");
      return true;
    });
  }
  std::vector<RunResult> Results(Jobs.size());
  {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Options.Jobs));
    for (size_t I = 0; I < Jobs.size(); ++I)
      Pool.async([&, I] {
        Results[I] = runCommand(Jobs[I].Args, Scratch + "/compile-" + std::to_string(I) + ".log");
      });
  }
  bool Compiles = true;
  for (size_t I = 0; I < Jobs.size(); ++I) {
    if (!Results[I].Ok) {
      Compiles = false;
      // Paths in the message are the scratch copy's: show them tree-relative.
      std::string Error = Results[I].FirstError;
      for (size_t At; (At = Error.find(Scratch + "/")) != std::string::npos;)
        Error.erase(At, Scratch.size() + 1);
      if (Report)
        Report->CompileFailures.push_back(Jobs[I].RelativePath + " (" + toString(Jobs[I].Side) +
                                          "): " + Error);
    } else if (!Jobs[I].Object.empty()) {
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
  RunResult Linked{true, ""};
  if (HasObjects)
    Linked = runCommand(LinkArgs, Scratch + "/link.log");
  std::vector<std::string> Undefined;
  if (Linked.Ok)
    Undefined = linkProblems(HasObjects ? Scratch + "/libclosure.so" : "");
  bool Links = Linked.Ok && Undefined.empty();
  if (Report) {
    Report->Links = Links;
    Report->UndefinedSymbols = std::move(Undefined);
    if (!Linked.Ok)
      Report->UndefinedSymbols.push_back("link failed: " + Linked.FirstError);
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

/// Qualified names of the symbols `Library` defines and leaves undefined.
bool readSymbols(const std::string &Library, std::set<std::string> &Defined,
                 std::set<std::string> &Undefined) {
  auto Binary = llvm::object::ObjectFile::createObjectFile(Library);
  if (!Binary) {
    llvm::consumeError(Binary.takeError());
    return false;
  }
  for (const llvm::object::SymbolRef &Symbol : Binary->getBinary()->symbols()) {
    auto Flags = Symbol.getFlags();
    auto Name = Symbol.getName();
    if (!Flags || !Name) {
      llvm::consumeError(Flags.takeError());
      llvm::consumeError(Name.takeError());
      continue;
    }
    bool IsUndefined = *Flags & llvm::object::SymbolRef::SF_Undefined;
    (IsUndefined ? Undefined : Defined).insert(qualifiedNameOf(*Name));
  }
  return true;
}

/// Tree symbols the linked closure leaves undefined (what the closure
/// should have brought along; torch, CUDA and libc symbols are expected to
/// come from the libraries it is loaded with), and entries it does not
/// define (a library that links because the entry's TU is gone proves
/// nothing). An empty `Library` stands for a closure with no objects.
std::vector<std::string> Verifier::linkProblems(const std::string &Library) const {
  std::set<std::string> Defined, Undefined;
  if (!Library.empty() && !readSymbols(Library, Defined, Undefined))
    return {"cannot read the linked closure library"};
  std::vector<std::string> Problems;
  for (const std::string &Name : Undefined)
    if (Result.TreeDeclaredNames.count(Name))
      Problems.push_back(Name);
  for (const ResolvedEntry &Entry : Result.Entries)
    if (isTranslationUnitName(Entry.Loc.File) && !Defined.count(Entry.Function))
      Problems.push_back("entry not defined: " + Entry.Function);
  return Problems;
}

llvm::Error Verifier::run() {
  VerifyReport &Report = Result.Verify;
  Report = VerifyReport();
  Report.Ran = true;
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
  return llvm::Error::success();
}

} // namespace

llvm::Error verifyClosure(AnalysisResult &Result, const VerifyOptions &Options) {
  return Verifier(Result, Options).run();
}

} // namespace opmig::analyze
