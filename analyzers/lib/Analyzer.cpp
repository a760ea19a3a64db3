#include "opmig/analyze/Analyzer.h"

#include "SharedPreambles.h"
#include "TreeLocations.h"
#include "opmig/analyze/CompileFlags.h"
#include "opmig/analyze/EntryResolver.h"
#include "opmig/analyze/ExternalClassifier.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/ParseBudget.h"
#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/SymbolClosure.h"
#include "opmig/analyze/TUParser.h"
#include "opmig/analyze/TokenIndex.h"
#include "opmig/support/Errors.h"
#include "opmig/support/NvccCheck.h"
#include "opmig/support/NvccOptions.h"
#include "opmig/support/SourceFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>

namespace opmig::analyze {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

/// The absolute `-I`/`-isystem`/`-iquote` directories among `Args`.
void collectIncludeDirs(const std::vector<std::string> &Args, std::set<std::string> &Dirs) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    for (llvm::StringRef Flag : {"-isystem", "-iquote", "-I"}) {
      if (!Arg.starts_with(Flag))
        continue;
      llvm::StringRef Dir = Arg.drop_front(Flag.size());
      if (Dir.empty() && I + 1 < Args.size())
        Dir = Args[I + 1];
      if (!Dir.empty())
        Dirs.insert(realPathOf(Dir));
      break;
    }
  }
}

class Analysis {
public:
  Analysis(const AnalyzeOptions &Options, SourceTree Tree, ToolchainPaths Toolchain,
           std::optional<CompileDatabase> Database)
      : Options(Options), Tree(std::move(Tree)), Scope(this->Tree.scope()),
        Toolchain(std::move(Toolchain)), Database(std::move(Database)),
        Cache(Options.CacheDir, this->Tree) {
    // TUs a compile database does not list fall back to inferred flags.
    Upstream = readUpstreamBuildFlags(this->Tree.Root, this->Toolchain.Python);
    Inferred = inferFlags(this->Tree.Root, this->Toolchain, Upstream);
    if (this->Database)
      warnAboutMissingDirectories();
    if (Options.UsePreamble)
      Preambles.emplace(
          this->Tree, Cache,
          [this](const std::string &TU) { return requestFor(TU, ParseSide::Host); }, Options.Jobs);
  }

  llvm::Expected<AnalysisResult> run();
  void stage(const char *Name, Clock::time_point Start) {
    Stats.Stages.push_back({Name, secondsSince(Start)});
  }

private:
  void warnAboutMissingDirectories();
  TUFlags flagsOf(const std::string &TU) const;
  ParseRequest requestFor(const std::string &TU, ParseSide Side) const;
  void parse(const std::vector<std::string> &TUs);
  /// How many of `Misses` may run at once; notes it for `--verbose`.
  unsigned parsesAtOnce(const std::vector<ParseRequest> &Misses);
  void recordParse(const ParseRequest &Request, TUFacts Facts, bool FromCache);
  void judgeRejectedTUs();
  NvccCheckRequest nvccRequestFor(const std::string &TU, const std::string &Nvcc) const;
  /// The carried nvcc flags the upstream builds `TU` (absolute) with.
  std::vector<std::string> nvccFlagsFor(const std::string &TU) const;
  void recordRejection(const std::string &TU, const NvccVerdict *Verdict,
                       const std::string &NoVerdictReason);
  std::vector<std::string> nextTUs(const SymbolClosure &Closure);
  AnalysisResult report(const SymbolClosure &Closure, const std::vector<EntryMatch> &Entries,
                        const std::set<std::string> &RegistrationOnly) const;
  void reportFiles(AnalysisResult &R, const SymbolClosure &Closure,
                   const std::set<std::string> &EntryUsrs,
                   const std::set<std::string> &RegistrationOnly) const;
  std::vector<EntryCaller> callersOf(const std::vector<std::string> &Usrs,
                                     const std::set<std::string> &RegistrationOnly) const;
  void reportSiblings(AnalysisResult &R, const SymbolClosure &Closure,
                      const std::set<std::string> &RegistrationOnly) const;
  void reportExternals(AnalysisResult &R, const SymbolClosure &Closure,
                       const std::set<std::string> &RegistrationOnly) const;
  void reportLeftBehind(AnalysisResult &R, const SymbolClosure &Closure,
                        const std::set<std::string> &RegistrationOnly) const;

  const AnalyzeOptions &Options;
  SourceTree Tree;
  const TreeScope Scope; ///< What belongs to the tree; asked for every include.
  ToolchainPaths Toolchain;
  std::optional<CompileDatabase> Database;
  UpstreamBuildFlags Upstream;
  TUFlags Inferred;
  std::optional<TokenIndex> Index;
  FactsCache Cache;
  std::optional<SharedPreambles> Preambles;
  /// Memory available when the first parse ran, read once per analysis.
  std::optional<std::optional<uint64_t>> Available;
  TUFacts Program;                 ///< Everything parsed so far, merged.
  std::set<std::string> ParsedTUs; ///< Absolute paths.
  std::set<std::string> SeenFiles; ///< Every file a parse read.
  /// Missing symbols already searched for among definition-shaped files.
  std::set<std::string> DefinitionSearched;
  /// Errors of each parse Clang rejected, by TU (absolute) and side, until
  /// nvcc has judged the TU; and the files those parses read.
  std::map<std::string, std::map<ParseSide, std::vector<ParseErrorFact>>> Rejected;
  std::map<std::string, std::set<std::string>> RejectedInputs;
  std::vector<NvccJudgement> Judged;
  std::vector<std::string> PartialReasons;
  std::vector<Finding> Diagnostics;
  AnalysisStats Stats;
};

void Analysis::warnAboutMissingDirectories() {
  std::set<std::string> Missing;
  for (const auto &[File, Flags] : Database->ByFile)
    if (!llvm::sys::fs::is_directory(Flags.Directory))
      Missing.insert(Flags.Directory);
  for (const std::string &Dir : Missing)
    Diagnostics.push_back(analysisWarning(
        finding_id::DatabaseDirectoryMissing, Dir,
        "compile database directory does not exist; its TUs are parsed from the source root"));
}

TUFlags Analysis::flagsOf(const std::string &TU) const {
  if (Database) {
    auto It = Database->ByFile.find(TU);
    if (It != Database->ByFile.end())
      return It->second;
  }
  return Inferred;
}

ParseRequest Analysis::requestFor(const std::string &TU, ParseSide Side) const {
  TUFlags Flags = flagsOf(TU);
  ParseRequest Request;
  Request.MainFile = TU;
  Request.SourceRoot = Tree.Root;
  Request.ExternalDirs = Scope.ExcludedDirs;
  Request.Side = Side;
  // Clang crashes in header search when its working directory is missing;
  // the flags were made absolute when the database was loaded anyway.
  Request.Directory = llvm::sys::fs::is_directory(Flags.Directory) ? Flags.Directory : Tree.Root;
  if (!Options.GpuArch.empty())
    Request.GpuArch = Options.GpuArch;
  else if (!Flags.GpuArchs.empty())
    Request.GpuArch = Flags.GpuArchs.front();
  Request.Flags = commonClangFlags(Toolchain);
  Request.Flags.insert(Request.Flags.end(), Flags.Args.begin(), Flags.Args.end());
  Request.Flags.insert(Request.Flags.end(), Options.ExtraArgs.begin(), Options.ExtraArgs.end());
  return Request;
}

void Analysis::parse(const std::vector<std::string> &TUs) {
  std::vector<ParseRequest> Misses;
  for (const std::string &TU : TUs) {
    if (!ParsedTUs.insert(TU).second)
      continue;
    std::vector<ParseSide> Sides = {ParseSide::Host};
    if (isCudaSource(TU))
      Sides.push_back(ParseSide::Device);
    for (ParseSide Side : Sides) {
      ParseRequest Request = requestFor(TU, Side);
      if (std::optional<TUFacts> Cached = Cache.lookup(Request))
        recordParse(Request, std::move(*Cached), /*FromCache=*/true);
      else
        Misses.push_back(std::move(Request));
    }
  }
  if (Preambles)
    Preambles->attach(Misses);
  std::vector<TUFacts> Results(Misses.size());
  std::mutex ProgressLock;
  unsigned Done = 0;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(parsesAtOnce(Misses)));
  for (size_t I = 0; I < Misses.size(); ++I)
    Pool.async([&, I] {
      Results[I] = parseTranslationUnit(Misses[I]);
      std::lock_guard<std::mutex> Lock(ProgressLock);
      if (Options.OnProgress)
        Options.OnProgress({++Done, unsigned(Misses.size()), Tree.relative(Misses[I].MainFile)});
    });
  Pool.wait();
  for (size_t I = 0; I < Misses.size(); ++I) {
    Cache.store(Misses[I], Results[I]);
    recordParse(Misses[I], std::move(Results[I]), /*FromCache=*/false);
  }
}

unsigned Analysis::parsesAtOnce(const std::vector<ParseRequest> &Misses) {
  if (Misses.empty())
    return 1;
  if (!Available)
    Available = availableMemory();
  std::vector<ParseWeight> Weights;
  for (const ParseRequest &Request : Misses)
    Weights.push_back(weightOfParse(Request));
  // -j0 is one per core; a wave smaller than that needs no more workers.
  unsigned Jobs = std::min<size_t>(llvm::hardware_concurrency(Options.Jobs).compute_thread_count(),
                                   Misses.size());
  ConcurrencyCap Cap = capConcurrency(Jobs, *Available, heaviest(Weights), "parse");
  if (!llvm::is_contained(Stats.Concurrency, Cap.Why))
    Stats.Concurrency.push_back(Cap.Why);
  return Cap.AtOnce;
}

void Analysis::recordParse(const ParseRequest &Request, TUFacts Facts, bool FromCache) {
  ++(FromCache ? Stats.ParsesCached : Stats.ParsesRun);
  std::string Where = Tree.relative(Request.MainFile) + " (" + toString(Request.Side) + ")";
  if (!Facts.Completed)
    PartialReasons.push_back(Where + ": the Clang frontend could not run on this TU");
  if (!Facts.Errors.empty()) {
    Rejected[Request.MainFile][Request.Side] = Facts.Errors;
    RejectedInputs[Request.MainFile].insert(Facts.InputFiles.begin(), Facts.InputFiles.end());
  }
  SeenFiles.insert(Facts.InputFiles.begin(), Facts.InputFiles.end());
  Program.merge(Facts);
}

NvccCheckRequest Analysis::nvccRequestFor(const std::string &TU, const std::string &Nvcc) const {
  ParseRequest Parse = requestFor(TU, ParseSide::Device);
  NvccCheckRequest Request;
  Request.Nvcc = Nvcc;
  Request.MainFile = TU;
  Request.Flags = Parse.Flags;
  Request.GpuArch = Parse.GpuArch;
  Request.NvccFlags = nvccFlagsFor(TU);
  return Request;
}

std::vector<std::string> Analysis::nvccFlagsFor(const std::string &TU) const {
  if (!Database)
    return Upstream.NvccFlags;
  if (auto It = Database->ByFile.find(TU); It != Database->ByFile.end())
    return It->second.NvccFlags;
  return {};
}

/// Clang and nvcc disagree on some CUDA; the upstream builds with nvcc, so
/// a TU nvcc compiles does not make the analysis partial. Its Clang errors
/// stay in the report as warnings: the AST Clang recovered around them is
/// what the closure was computed from.
void Analysis::judgeRejectedTUs() {
  std::string Nvcc = Options.JudgeWithNvcc ? findNvcc(Toolchain.CudaPath) : "";
  std::vector<std::string> TUs;
  for (const auto &[TU, Sides] : Rejected)
    TUs.push_back(TU);
  std::vector<std::optional<NvccVerdict>> Verdicts(TUs.size());
  if (!Nvcc.empty()) {
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Options.Jobs));
    for (size_t I = 0; I < TUs.size(); ++I)
      Pool.async([&, I] {
        NvccCheckRequest Request = nvccRequestFor(TUs[I], Nvcc);
        std::vector<std::string> Command = nvccCheckCommand(Request);
        if (std::optional<NvccVerdict> Cached = Cache.lookupVerdict(Command)) {
          Verdicts[I] = std::move(Cached);
          return;
        }
        Verdicts[I] = checkWithNvcc(Request);
        const std::set<std::string> &Inputs = RejectedInputs.at(TUs[I]);
        Cache.storeVerdict(Command, {Inputs.begin(), Inputs.end()}, *Verdicts[I]);
      });
  }
  std::string NoVerdict = !Options.JudgeWithNvcc ? "" : "no nvcc was found to judge them";
  for (size_t I = 0; I < TUs.size(); ++I)
    recordRejection(TUs[I], Verdicts[I] ? &*Verdicts[I] : nullptr, NoVerdict);
}

void Analysis::recordRejection(const std::string &TU, const NvccVerdict *Verdict,
                               const std::string &NoVerdictReason) {
  bool Accepted = Verdict && Verdict->Accepted;
  NvccJudgement Judgement{Tree.relative(TU), Verdict != nullptr, Accepted, ""};
  if (Verdict && !Verdict->Errors.empty()) {
    const CompilerError &First = Verdict->Errors.front();
    Judgement.FirstError =
        Tree.relative(First.File) + ":" + std::to_string(First.Line) + ": " + First.Message;
  } else if (Verdict) {
    Judgement.FirstError = Verdict->Problem;
  }
  for (const auto &[Side, Errors] : Rejected.at(TU)) {
    std::string Where = Tree.relative(TU) + " (" + toString(Side) + ")";
    const ParseErrorFact &First = Errors.front();
    if (!Accepted) {
      std::string Reason = Where + ": " + std::to_string(Errors.size()) +
                           " error(s) Clang reported; first: " + Tree.relative(First.File) + ":" +
                           std::to_string(First.Line) + ": " + First.Message;
      if (Verdict)
        Reason += Verdict->Ran ? "; nvcc rejects it too: " + Judgement.FirstError
                               : "; nvcc could not judge it: " + Judgement.FirstError;
      else if (!NoVerdictReason.empty())
        Reason += "; " + NoVerdictReason;
      PartialReasons.push_back(std::move(Reason));
    }
    for (const ParseErrorFact &Fact : Errors)
      Diagnostics.push_back(analysisFinding(
          Side == ParseSide::Host ? finding_id::HostParseError : finding_id::DeviceParseError,
          Accepted ? Severity::Warning : Severity::Error, Tree.relative(Fact.File), Fact.Line,
          Accepted ? "Clang only (nvcc compiles " + Tree.relative(TU) + "): " + Fact.Message
                   : Fact.Message));
  }
  Judged.push_back(std::move(Judgement));
}

/// TUs that may hold what the closure still lacks: definitions of needed
/// symbols, and specializations of templates whose bodies the users cannot
/// see (any TU including the template's definition can provide one).
std::vector<std::string> Analysis::nextTUs(const SymbolClosure &Closure) {
  std::set<std::string> Next;
  for (const std::string &Usr : Closure.MissingDefinitions) {
    const SymbolFact &Sym = Program.Symbols.at(Usr);
    if (Sym.Kind == SymbolKind::Macro)
      continue;
    // Files that seem to define the name first; every file mentioning it
    // (callers included) only if that found nothing.
    std::string Base = entryBaseName(Sym.Name);
    auto Unparsed = [&](std::vector<std::string> TUs) {
      llvm::erase_if(TUs, [&](const std::string &TU) { return ParsedTUs.count(TU); });
      return TUs;
    };
    std::vector<std::string> Candidates;
    if (DefinitionSearched.insert(Usr).second)
      Candidates = Unparsed(Index->tusCoveringDefinitions(Base, SeenFiles));
    if (Candidates.empty())
      Candidates = Unparsed(Index->tusCovering(Base, SeenFiles));
    Next.insert(Candidates.begin(), Candidates.end());
  }
  for (const std::string &Usr : Closure.UnprovidedTemplates) {
    const SymbolFact &Sym = Program.Symbols.at(Usr);
    std::vector<std::string> Candidates =
        Sym.IsDefinition ? Index->tusReaching(Sym.File)
                         : Index->tusCovering(entryBaseName(Sym.Name), SeenFiles);
    Next.insert(Candidates.begin(), Candidates.end());
  }
  std::vector<std::string> Result;
  for (const std::string &TU : Next)
    if (!ParsedTUs.count(TU))
      Result.push_back(TU);
  return Result;
}

llvm::Expected<AnalysisResult> Analysis::run() {
  auto Start = Clock::now();
  std::set<std::string> IncludeDirs;
  if (Database)
    for (const auto &[File, Flags] : Database->ByFile)
      collectIncludeDirs(Flags.Args, IncludeDirs);
  collectIncludeDirs(Inferred.Args, IncludeDirs);
  collectIncludeDirs(Options.ExtraArgs, IncludeDirs);
  Index.emplace(Tree, std::vector<std::string>(IncludeDirs.begin(), IncludeDirs.end()));
  stage("index", Start);

  Start = Clock::now();
  std::vector<EntryMatch> Entries;
  std::vector<std::string> EntryUsrs;
  std::set<std::string> RegistrationOnly;
  for (const std::string &Entry : Options.Entries) {
    parse(Index->tusCovering(entryBaseName(Entry), {}));
    auto Match = resolveEntry(Entry, Program, Tree, Index->callableNames());
    if (!Match)
      return Match.takeError();
    EntryUsrs.insert(EntryUsrs.end(), Match->Usrs.begin(), Match->Usrs.end());
    RegistrationOnly.insert(Match->RegistrationFiles.begin(), Match->RegistrationFiles.end());
    Entries.push_back(std::move(*Match));
  }
  stage("resolve", Start);

  Start = Clock::now();
  SymbolClosure Closure = computeClosure(Program, Scope, EntryUsrs, RegistrationOnly);
  for (std::vector<std::string> Next = nextTUs(Closure); !Next.empty(); Next = nextTUs(Closure)) {
    parse(Next);
    Closure = computeClosure(Program, Scope, EntryUsrs, RegistrationOnly);
  }
  // A registration TU that also defines a needed symbol is copied like any
  // other closure file.
  for (const auto &[File, Need] : Closure.Files)
    if (!Need.Defines.empty() || !Need.Instantiates.empty())
      RegistrationOnly.erase(File);
  Closure = computeClosure(Program, Scope, EntryUsrs, RegistrationOnly);
  stage("closure", Start);
  Start = Clock::now();
  judgeRejectedTUs();
  stage("nvcc", Start);
  // An op entry may have resolved before the TU defining its function was
  // parsed: point it at the definition now known.
  for (EntryMatch &Match : Entries)
    for (const std::string &Usr : Match.Usrs)
      if (const SymbolFact &Fn = Program.Symbols.at(Usr); Fn.IsDefinition)
        Match.Entry.Loc = {Tree.relative(Fn.File), Fn.Line};
  return report(Closure, Entries, RegistrationOnly);
}

AnalysisResult Analysis::report(const SymbolClosure &Closure,
                                const std::vector<EntryMatch> &Entries,
                                const std::set<std::string> &RegistrationOnly) const {
  AnalysisResult R;
  R.SourceRoot = Tree.Root;
  R.SubmoduleDirs = Tree.SubmoduleDirs;
  R.WrittenPointerFields = Program.WrittenPointerFields;
  std::set<std::string> EntryUsrs;
  for (const EntryMatch &Match : Entries) {
    R.Entries.push_back(Match.Entry);
    R.Entries.back().Callers = callersOf(Match.Usrs, RegistrationOnly);
    EntryUsrs.insert(Match.Usrs.begin(), Match.Usrs.end());
  }
  reportFiles(R, Closure, EntryUsrs, RegistrationOnly);
  for (const std::string &Usr : Closure.Symbols) {
    auto It = Program.Symbols.find(Usr);
    if (It == Program.Symbols.end())
      continue;
    const SymbolFact &Sym = It->second;
    ClosureSymbol Out{Sym.Name, Sym.Kind, {Tree.relative(Sym.File), Sym.Line}};
    (Closure.MissingDefinitions.count(Usr) ? R.Unresolved : R.Symbols).push_back(std::move(Out));
  }
  auto ByLocation = [](const ClosureSymbol &A, const ClosureSymbol &B) {
    return std::tie(A.Loc.File, A.Loc.Line, A.Name) < std::tie(B.Loc.File, B.Loc.Line, B.Name);
  };
  std::sort(R.Symbols.begin(), R.Symbols.end(), ByLocation);
  std::sort(R.Unresolved.begin(), R.Unresolved.end(), ByLocation);
  reportSiblings(R, Closure, RegistrationOnly);
  // A needed function or variable defined nowhere in the tree cannot link
  // from the copy either, unless a library outside the tree provides it.
  // A needed specialization that no TU provides is an undefined symbol.
  if (llvm::any_of(R.Unresolved, [](const ClosureSymbol &S) { return isLinkable(S.Kind); }) ||
      !Closure.UnprovidedTemplates.empty())
    R.LinksAsCopied = R.LinksAfterSlicing = false;
  reportExternals(R, Closure, RegistrationOnly);
  reportLeftBehind(R, Closure, RegistrationOnly);

  R.Diagnostics = Tree.Diagnostics;
  std::set<std::tuple<std::string, unsigned, std::string>> Seen;
  for (const Finding &Diag : Diagnostics)
    if (Seen.insert({Diag.File, Diag.Line, Diag.Message}).second)
      R.Diagnostics.push_back(Diag);
  R.PartialReasons = PartialReasons;
  R.NvccJudged = Judged;
  // What Clang could not parse may hide any dependency: never claim a link.
  if (R.isPartial())
    R.LinksAsCopied = R.LinksAfterSlicing = false;
  if (!Database) {
    R.InferredFlags = Inferred.Args;
    R.InferredFrom = Upstream.ReadFrom;
    R.UpstreamNvccFlags = Upstream.NvccFlags;
  }
  R.Torch = Toolchain.Torch;
  for (const std::string &TU : ParsedTUs)
    if (Database && !Database->ByFile.count(TU))
      R.Diagnostics.push_back(analysisWarning(finding_id::NotInDatabase, Tree.relative(TU),
                                              "not in the compile database; parsed with "
                                              "inferred flags"));
  for (const ClosureFile &File : R.Files)
    if (File.Role != FileRole::Registration && isTranslationUnitName(File.Path)) {
      ParseRequest Request = requestFor(Tree.Root + "/" + File.Path, ParseSide::Host);
      R.TUFlags[File.Path] = Request.Flags;
      R.TUNvccFlags[File.Path] = nvccFlagsFor(Tree.Root + "/" + File.Path);
      R.GpuArch = Request.GpuArch;
    }
  for (const SourceFile &File : Tree.Files) {
    std::string Relative = Tree.relative(File.Path);
    if (File.IsTranslationUnit && !R.TUFlags.count(Relative))
      R.OtherTUFlags[Relative] = requestFor(File.Path, ParseSide::Host).Flags;
  }
  R.CudaPath = Toolchain.CudaPath;
  R.Stats = Stats;
  R.Stats.FilesIndexed = Tree.Files.size();
  R.Stats.TUsInTree = std::count_if(Tree.Files.begin(), Tree.Files.end(),
                                    [](const SourceFile &F) { return F.IsTranslationUnit; });
  R.Stats.TUsParsed = ParsedTUs.size();
  if (Preambles) {
    R.Stats.ParsesWithPreamble = Preambles->parsesAttached();
    R.Stats.Preambles = Preambles->notes();
    // The builds' cap first: they run before the parses.
    R.Stats.Concurrency.insert(R.Stats.Concurrency.begin(), Preambles->concurrency().begin(),
                               Preambles->concurrency().end());
  }
  for (const std::string &TU : ParsedTUs)
    R.Stats.ParsedTUs.push_back(Tree.relative(TU));
  return R;
}

void Analysis::reportFiles(AnalysisResult &R, const SymbolClosure &Closure,
                           const std::set<std::string> &EntryUsrs,
                           const std::set<std::string> &RegistrationOnly) const {
  for (const auto &[Path, Need] : Closure.Files) {
    ClosureFile File;
    File.Path = Tree.relative(Path);
    bool DefinesEntry =
        llvm::any_of(Need.Defines, [&](const std::string &U) { return EntryUsrs.count(U); });
    if (DefinesEntry)
      File.Role = FileRole::Entry;
    else if (RegistrationOnly.count(Path))
      File.Role = FileRole::Registration;
    else
      File.Role = isTranslationUnitName(Path) ? FileRole::Source : FileRole::Header;
    for (const std::string &Usr : Need.Defines)
      File.Symbols.push_back(Program.Symbols.at(Usr).Name);
    for (const std::string &Usr : Need.Instantiates)
      File.Instantiates.push_back(Program.Symbols.at(Usr).Name);
    File.Provides.assign(Need.Provides.begin(), Need.Provides.end());
    for (const std::string &By : Need.IncludedBy)
      File.IncludedBy.push_back(Tree.relative(By));
    for (const IncludeFact &Include : Need.DroppedIncludes)
      File.DroppedIncludes.push_back(
          {Include.Line,
           Include.Angled ? "<" + Include.Spelling + ">" : "\"" + Include.Spelling + "\"",
           Tree.relative(Include.Resolved)});
    std::sort(File.DroppedIncludes.begin(), File.DroppedIncludes.end(),
              [](const DroppedInclude &A, const DroppedInclude &B) { return A.Line < B.Line; });
    // Copied whole, the file would include a header the closure leaves out.
    if (!File.DroppedIncludes.empty())
      R.LinksAsCopied = false;
    std::sort(File.Symbols.begin(), File.Symbols.end());
    File.Symbols.erase(std::unique(File.Symbols.begin(), File.Symbols.end()), File.Symbols.end());
    std::sort(File.Instantiates.begin(), File.Instantiates.end());
    R.Files.push_back(std::move(File));
  }
  for (const std::string &Path : RegistrationOnly) {
    if (Closure.Files.count(Path))
      continue;
    ClosureFile File;
    File.Path = Tree.relative(Path);
    File.Role = FileRole::Registration;
    R.Files.push_back(std::move(File));
  }
  std::sort(R.Files.begin(), R.Files.end(),
            [](const ClosureFile &A, const ClosureFile &B) { return A.Path < B.Path; });
}

/// The tree functions whose definitions call one of `Usrs`, registration
/// code (a PYBIND11_MODULE body) aside.
std::vector<EntryCaller> Analysis::callersOf(const std::vector<std::string> &Usrs,
                                             const std::set<std::string> &RegistrationOnly) const {
  std::vector<EntryCaller> Callers;
  for (const auto &[Usr, Sym] : Program.Symbols)
    if (Sym.IsDefinition && isLinkable(Sym.Kind) && !RegistrationOnly.count(Sym.File) &&
        !llvm::is_contained(Usrs, Usr) &&
        llvm::any_of(Usrs, [&](const std::string &Entry) { return Sym.Refs.count(Entry); }))
      Callers.push_back({Sym.Name, {Tree.relative(Sym.File), Sym.Line}});
  llvm::sort(Callers, [](const EntryCaller &A, const EntryCaller &B) {
    return std::tie(A.Loc.File, A.Loc.Line, A.Name) < std::tie(B.Loc.File, B.Loc.Line, B.Name);
  });
  return Callers;
}

/// Definitions that sit in copied files without being needed (in a TU, or
/// emitted by every includer of a header): compiled along, they link only
/// if what they reference comes along too.
void Analysis::reportSiblings(AnalysisResult &R, const SymbolClosure &Closure,
                              const std::set<std::string> &RegistrationOnly) const {
  std::set<std::string> ProvidedInClosure; ///< Specializations a closure file provides.
  std::map<std::string, std::set<std::string>> ProvidersOutside; ///< The others, by file.
  for (const InstantiationFact &Inst : Program.Instantiations)
    if (Closure.Files.count(Inst.File))
      ProvidedInClosure.insert(Inst.Specialization);
    else
      ProvidersOutside[Inst.Specialization].insert(Tree.relative(Inst.File));
  for (const auto &[Usr, Sym] : Program.Symbols) {
    if (!Sym.IsDefinition || !isLinkable(Sym.Kind) || Closure.Symbols.count(Usr) ||
        !Closure.Files.count(Sym.File) || RegistrationOnly.count(Sym.File) ||
        !(isTranslationUnitName(Sym.File) || Sym.EmittedWhereIncluded))
      continue;
    SiblingDefinition Sibling{
        Sym.Name, {Tree.relative(Sym.File), Sym.Line}, Sym.BeginOffset, Sym.EndOffset, {}, {}};
    std::set<std::string> Missing, WouldNeed;
    for (const std::string &Ref : Sym.Refs) {
      auto It = Program.Symbols.find(Ref);
      if (It == Program.Symbols.end())
        continue;
      const SymbolFact &Used = It->second;
      if (isLinkable(Used.Kind) && (!Used.IsDefinition || !Closure.Files.count(Used.File)))
        Missing.insert(Used.Name);
      if (Used.IsDefinition && !Closure.Files.count(Used.File))
        WouldNeed.insert(Tree.relative(Used.File));
      if (llvm::none_of(Used.DeclaredIn,
                        [&](const std::string &F) { return Closure.Files.count(F); }))
        for (const std::string &F : Used.DeclaredIn)
          WouldNeed.insert(Tree.relative(F));
    }
    for (const auto &[Specialization, Template] : Sym.Specializations)
      if (!ProvidedInClosure.count(Specialization)) {
        Missing.insert(Program.Symbols.at(Template).Name);
        if (auto It = ProvidersOutside.find(Specialization); It != ProvidersOutside.end())
          WouldNeed.insert(It->second.begin(), It->second.end());
      }
    Sibling.MissingDependencies.assign(Missing.begin(), Missing.end());
    Sibling.WouldNeed.assign(WouldNeed.begin(), WouldNeed.end());
    if (!Sibling.MissingDependencies.empty())
      R.LinksAsCopied = false;
    R.Siblings[Sibling.Loc.File].push_back(std::move(Sibling));
  }
  for (auto &[File, List] : R.Siblings)
    std::sort(List.begin(), List.end(), [](const SiblingDefinition &A, const SiblingDefinition &B) {
      return std::tie(A.Loc.Line, A.Name) < std::tie(B.Loc.Line, B.Name);
    });
}

void Analysis::reportExternals(AnalysisResult &R, const SymbolClosure &Closure,
                               const std::set<std::string> &RegistrationOnly) const {
  ExternalClassifier Classifier(Toolchain, Scope.ExcludedDirs);
  std::map<std::pair<std::string, std::string>, ExternalInclude> ByHeader;
  std::set<std::tuple<std::string, std::string, std::string, unsigned>> Seen;
  for (const IncludeFact &Include : Program.Includes) {
    if (!Closure.Files.count(Include.Includer) || RegistrationOnly.count(Include.Includer))
      continue;
    if (!Include.Resolved.empty() && Scope.contains(Include.Resolved))
      continue;
    if (!Seen.insert({Include.Spelling, Include.Resolved, Include.Includer, Include.Line}).second)
      continue;
    auto [It, Inserted] = ByHeader.try_emplace({Include.Spelling, Include.Resolved});
    ExternalInclude &Out = It->second;
    if (Inserted) {
      Out.Spelling = Include.Spelling;
      Out.ResolvedPath = Include.Resolved;
      Out.Class = Classifier.classify(Include);
      Out.Optional = true;
    }
    Out.Optional = Out.Optional && Include.HasIncludeOnly;
    Out.IncludedFrom.push_back({Tree.relative(Include.Includer), Include.Line});
  }
  for (auto &[Key, External] : ByHeader) {
    std::sort(External.IncludedFrom.begin(), External.IncludedFrom.end(),
              [](const Location &A, const Location &B) {
                return std::tie(A.File, A.Line) < std::tie(B.File, B.Line);
              });
    R.External.push_back(std::move(External));
  }
}

void Analysis::reportLeftBehind(AnalysisResult &R, const SymbolClosure &Closure,
                                const std::set<std::string> &RegistrationOnly) const {
  std::set<std::string> Dirs;
  for (const auto &[Path, Need] : Closure.Files)
    Dirs.insert(llvm::sys::path::parent_path(Path).str());
  for (const SourceFile &File : Tree.Files)
    if (Dirs.count(llvm::sys::path::parent_path(File.Path).str()) &&
        !Closure.Files.count(File.Path) && !RegistrationOnly.count(File.Path))
      R.LeftBehind.push_back(Tree.relative(File.Path));
}

/// Toolchain options name directories that must exist: a typo would
/// otherwise silently mean "no CUDA" or "no torch".
llvm::Error checkToolchainOptions(const AnalyzeOptions &Options) {
  if (!Options.CudaPath.empty() &&
      !llvm::sys::fs::exists(Options.CudaPath + "/include/cuda_runtime.h"))
    return inputError("the CUDA path '", Options.CudaPath, "'", inputs::CudaPath,
                      " has no include/cuda_runtime.h; pass the CUDA toolkit root");
  for (const std::string &Dir : Options.TorchIncludeDirs)
    if (!llvm::sys::fs::is_directory(Dir))
      return inputError("the torch include directory '", Dir, "'", inputs::TorchIncludeDirs,
                        " is not a directory");
  return llvm::Error::success();
}

} // namespace

static llvm::Error checkEntryOptions(const AnalyzeOptions &Options) {
  for (const std::string &Entry : Options.Entries)
    if (llvm::StringRef(Entry).trim().ltrim(':').empty())
      return inputError("the entry '", Entry, "'", inputs::Entries,
                        " is empty; name a C++ function (e.g. ns::scale) or a registered op");
  if (!Options.GpuArch.empty() && !isCudaArch(Options.GpuArch))
    return inputError("invalid GPU architecture '", Options.GpuArch, "'", inputs::GpuArch,
                      "; name an NVIDIA architecture such as sm_80, sm_90 or sm_90a");
  return llvm::Error::success();
}

llvm::Expected<AnalysisResult> analyzeClosure(const AnalyzeOptions &Options) {
  auto Start = Clock::now();
  if (llvm::Error E = checkEntryOptions(Options))
    return E;
  if (llvm::Error E = checkToolchainOptions(Options))
    return E;
  auto Tree = readSourceTree(Options.SourceRoot);
  if (!Tree)
    return Tree.takeError();
  std::optional<CompileDatabase> Database;
  if (!Options.BuildDir.empty()) {
    auto Loaded = loadCompileDatabase(Options.BuildDir);
    if (!Loaded)
      return Loaded.takeError();
    Database = std::move(*Loaded);
  }
  Analysis Run(Options, std::move(*Tree), findToolchain(Options.CudaPath, Options.TorchIncludeDirs),
               std::move(Database));
  Run.stage("read", Start);
  return Run.run();
}

} // namespace opmig::analyze
