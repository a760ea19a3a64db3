#include "SharedPreambles.h"

#include "opmig/analyze/ParseBudget.h"
#include "opmig/analyze/Preamble.h"
#include "opmig/analyze/PreamblePruning.h"
#include "opmig/support/SourceFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <mutex>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;

namespace {

/// TUs share a run only with TUs parsed with the same flags, from the same
/// folder.
std::string groupOf(const ParseRequest &Request) {
  std::string Key = Request.Directory;
  for (const std::string &Flag : Request.Flags)
    Key += '\0' + Flag;
  return Key;
}

/// Names a preamble by everything that shapes it: the command line that
/// builds it (flags, side, architecture, language), its folder and its
/// includes. The compiler is this build of opmig, which the cache folder
/// already names; the headers' contents are checked by the cache entry.
std::string keyOf(const ParseRequest &Like, const std::vector<std::string> &Run) {
  ParseRequest Request = Like;
  Request.MainFile = isCudaSource(Like.MainFile) ? "preamble.cuh" : "preamble.h";
  std::string Key = "preamble/1\0" + Request.Directory;
  for (const std::string &Arg : parseCommandLine(Request))
    Key += '\0' + Arg;
  for (const std::string &Include : Run)
    Key += '\0' + Include;
  return llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true);
}

/// Writes `Text` to `Path` unless it is already there: a PCH records the
/// header's modification time, so rewriting it would spoil PCHs in use.
bool ensureFile(const std::string &Path, const std::string &Text) {
  if (fs::exists(Path))
    return true;
  llvm::SmallString<256> Temp;
  int FD;
  if (fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Temp))
    return false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      fs::remove(Temp);
      return false;
    }
  }
  if (fs::exists(Path) || fs::rename(Temp, Path))
    fs::remove(Temp);
  return fs::exists(Path);
}

} // namespace

SharedPreambles::SharedPreambles(const SourceTree &Tree, FactsCache &Cache,
                                 std::function<ParseRequest(const std::string &)> HostRequestFor,
                                 unsigned Jobs)
    : Tree(Tree), Cache(Cache), HostRequestFor(std::move(HostRequestFor)), Jobs(Jobs) {}

SharedPreambles::~SharedPreambles() {
  if (OwnsFolder)
    fs::remove_directories(Folder);
}

std::string SharedPreambles::folder() {
  if (!Folder.empty())
    return Folder;
  Folder = Cache.preambleDir();
  if (!Folder.empty() && !fs::create_directories(Folder)) {
    // Before this run adds its own: a torch upgrade or other flags leave
    // preambles behind that no run will read again.
    if (unsigned Pruned = prunePreambles(Folder, Cache))
      Notes.push_back("removed " + std::to_string(Pruned) +
                      " unused or outdated preamble(s) from the cache");
    return Folder;
  }
  // No cache (or an unwritable one): a folder for this run only.
  llvm::SmallString<256> Temp;
  if (fs::createUniqueDirectory("opmig-preamble", Temp))
    return Folder = "";
  OwnsFolder = true;
  return Folder = std::string(Temp);
}

std::vector<std::string> SharedPreambles::runFor(const ParseRequest &Request) {
  if (!flagsAllowPreamble(Request.Flags))
    return {};
  const std::vector<std::string> &Shared = sharedRunOf(groupOf(Request));
  auto [It, Inserted] = LeadingRuns.try_emplace(Request.MainFile);
  if (Inserted)
    if (const SourceFile *File = Tree.find(Request.MainFile))
      It->second = leadingExternalIncludes(*File, Request.Flags, Tree.scope());
  return startsWithRun(It->second, Shared) ? Shared : std::vector<std::string>{};
}

const std::vector<std::string> &SharedPreambles::sharedRunOf(const std::string &Group) {
  auto [It, Inserted] = SharedRuns.try_emplace(Group);
  if (!Inserted)
    return It->second;
  // Over every TU of the tree, not one wave's, so that all waves agree.
  std::vector<std::vector<std::string>> Runs;
  TreeScope Scope = Tree.scope();
  for (const SourceFile &File : Tree.Files) {
    if (!File.IsTranslationUnit)
      continue;
    ParseRequest Request = HostRequestFor(File.Path);
    if (groupOf(Request) != Group)
      continue;
    auto [Run, New] = LeadingRuns.try_emplace(File.Path);
    if (New)
      Run->second = leadingExternalIncludes(File, Request.Flags, Scope);
    Runs.push_back(Run->second);
  }
  It->second = sharedRun(Runs);
  return It->second;
}

std::string SharedPreambles::describe(const ParseRequest &Like,
                                      const std::vector<std::string> &Run) const {
  std::string Side = toString(Like.Side);
  if (Like.Side == ParseSide::Device)
    Side += " " + Like.GpuArch;
  return Side + " preamble of " + llvm::join(Run, ", ");
}

std::pair<std::optional<SharedPreambles::Built>, std::string>
SharedPreambles::build(const std::string &Key, const ParseRequest &Like,
                       const std::vector<std::string> &Run) const {
  std::string Base = Folder + "/" + Key;
  Built B;
  B.Pch = Base + ".pch";
  B.Header = Base + (isCudaSource(Like.MainFile) ? ".cuh" : ".h");
  auto Start = std::chrono::steady_clock::now();
  PreambleBuild Result;
  if (!ensureFile(B.Header, preambleHeaderText(Run)))
    Result.Problem = "could not write '" + B.Header + "'";
  else
    Result = buildPreamble(Like, B.Header, B.Pch);
  double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  if (!Result.Built)
    return {std::nullopt,
            describe(Like, Run) + ": not built (" + Result.Problem + "); its TUs parse without it"};
  B.Inputs = std::move(Result.InputFiles);
  Cache.storePreamble(B.Pch, B.Inputs);
  std::string Took;
  llvm::raw_string_ostream(Took) << llvm::format("%.1f", Seconds);
  std::string Note = describe(Like, Run) + ": built in " + Took + " s (" +
                     std::to_string(B.Inputs.size()) + " headers)";
  return {std::move(B), std::move(Note)};
}

void SharedPreambles::attach(std::vector<ParseRequest> &Parses) {
  std::map<std::string, std::vector<size_t>> Users;
  std::map<std::string, std::vector<std::string>> Runs;
  std::vector<std::string> Keys; ///< In the order of their first parse.
  for (size_t I = 0; I < Parses.size(); ++I) {
    std::vector<std::string> Run = runFor(Parses[I]);
    if (Run.empty())
      continue;
    std::string Key = keyOf(Parses[I], Run);
    if (Users[Key].empty())
      Keys.push_back(Key);
    Users[Key].push_back(I);
    Runs.try_emplace(Key, std::move(Run));
  }
  // A run is shared by at least two TUs of the tree (sharedRun), so it is
  // built even when this wave has one parse of it (the entry's TU, first):
  // later waves, and later runs through the cache, use it.
  std::vector<std::string> ToBuild;
  std::map<std::string, std::string> NoteOf;
  for (const std::string &Key : Keys) {
    if (Preambles.count(Key) || folder().empty())
      continue;
    const ParseRequest &Like = Parses[Users.at(Key).front()];
    std::string Pch = folder() + "/" + Key + ".pch";
    if (std::optional<std::vector<std::string>> Inputs = Cache.lookupPreamble(Pch)) {
      std::string Header = folder() + "/" + Key + (isCudaSource(Like.MainFile) ? ".cuh" : ".h");
      Preambles[Key] = Built{Pch, Header, std::move(*Inputs)};
      touchPreamble(Pch); // Recently used: pruned last.
      NoteOf[Key] = describe(Like, Runs.at(Key)) + ": from the cache";
    } else {
      ToBuild.push_back(Key);
    }
  }
  buildAll(ToBuild, Parses, Users, Runs, NoteOf);
  // Builds finish in any order; the notes follow the parses.
  for (const std::string &Key : Keys)
    if (auto It = NoteOf.find(Key); It != NoteOf.end())
      Notes.push_back(std::move(It->second));
  for (const auto &[Key, Indices] : Users) {
    auto It = Preambles.find(Key);
    if (It == Preambles.end() || !It->second)
      continue;
    for (size_t I : Indices) {
      Parses[I].PreamblePch = It->second->Pch;
      Parses[I].PreambleHeader = It->second->Header;
      Parses[I].PreambleInputs = It->second->Inputs;
      ++Attached;
    }
  }
}

void SharedPreambles::buildAll(const std::vector<std::string> &Keys,
                               const std::vector<ParseRequest> &Parses,
                               const std::map<std::string, std::vector<size_t>> &Users,
                               const std::map<std::string, std::vector<std::string>> &Runs,
                               std::map<std::string, std::string> &NoteOf) {
  if (Keys.empty())
    return;
  // Builds run at once (host and device) as far as memory allows:
  // bench/README.md, "Preamble builds at once or in turn", has the figures.
  std::vector<ParseWeight> Weights;
  for (const std::string &Key : Keys)
    Weights.push_back(weightOfPreambleBuild(Parses[Users.at(Key).front()]));
  unsigned Workers =
      std::min<size_t>(llvm::hardware_concurrency(Jobs).compute_thread_count(), Keys.size());
  ConcurrencyCap Cap =
      capConcurrency(Workers, availableMemory(), heaviest(Weights), "preamble build");
  if (!llvm::is_contained(Concurrency, Cap.Why))
    Concurrency.push_back(Cap.Why);
  std::mutex Lock;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Cap.AtOnce));
  for (const std::string &Key : Keys)
    Pool.async([&, Key] {
      auto [Result, Note] = build(Key, Parses[Users.at(Key).front()], Runs.at(Key));
      std::lock_guard<std::mutex> Guard(Lock);
      Preambles[Key] = std::move(Result);
      NoteOf[Key] = std::move(Note);
    });
  Pool.wait();
}

} // namespace opmig::analyze
