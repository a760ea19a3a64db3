#include "opmig/analyze/FactsCache.h"

#include "nlohmann/json.hpp"
#include "opmig/support/JsonText.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>

namespace opmig::analyze {

namespace fs = llvm::sys::fs;

/// Names this build of opmig: its entries are never read by another build.
static std::string toolStamp() {
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  fs::file_status Status;
  if (Exe.empty() || fs::status(Exe, Status))
    return "unknown-build";
  return Exe + ":" + std::to_string(Status.getSize()) + ":" +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

std::string defaultCacheDir() {
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); Xdg && !Xdg->empty())
    return *Xdg + "/opmig/analyze";
  if (auto Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    return *Home + "/.cache/opmig/analyze";
  return "";
}

/// Entries of other builds that nobody used for this long are removed.
static constexpr std::chrono::hours StaleAfter(24 * 7);

static void removeStaleBuilds(const std::string &CacheRoot, const std::string &Keep) {
  std::error_code EC;
  auto Now = std::chrono::system_clock::now();
  for (fs::directory_iterator It(CacheRoot, EC), End; It != End && !EC; It.increment(EC)) {
    fs::file_status Status;
    if (It->path() == Keep || fs::status(It->path(), Status) || !fs::is_directory(Status))
      continue;
    if (Now - Status.getLastModificationTime() > StaleAfter)
      fs::remove_directories(It->path());
  }
}

std::string buildCacheDir(const std::string &CacheRoot) {
  if (CacheRoot.empty())
    return "";
  return CacheRoot + "/" + llvm::utohexstr(llvm::xxh3_64bits(toolStamp()), /*LowerCase=*/true);
}

std::string objectCacheDir(const std::string &CacheRoot) {
  return CacheRoot.empty() ? "" : buildCacheDir(CacheRoot) + "/objects";
}

FactsCache::FactsCache(const std::string &CacheRoot, const SourceTree &Tree)
    : Dir(buildCacheDir(CacheRoot)), Tree(Tree) {
  if (!Dir.empty())
    removeStaleBuilds(CacheRoot, Dir);
}

/// How entries name the tree's root: a copy of the tree at another path (a
/// second checkout, a sandbox) reads the entries that the first one wrote.
static constexpr llvm::StringLiteral RootMark = "<opmig-tree-root>";

std::string FactsCache::portable(llvm::StringRef Key) const {
  return replacePathPrefix(Key, Tree.Root, RootMark);
}

/// The root as it is spelled inside a JSON string.
static std::string jsonSpelling(const std::string &Path) {
  std::string Quoted = nlohmann::json(Path).dump();
  return Quoted.substr(1, Quoted.size() - 2);
}

std::string FactsCache::entryPath(const ParseRequest &Request) const {
  std::string Key;
  for (const std::string &Arg : parseCommandLine(Request))
    Key += '\0' + Arg;
  Key += '\0' + Request.SourceRoot;
  for (const std::string &Dir : Request.ExternalDirs) // What counts as the tree.
    Key += '\0' + Dir;
  return Dir + "/" + llvm::utohexstr(llvm::xxh3_64bits(portable(Key)), /*LowerCase=*/true) +
         ".json";
}

std::string FactsCache::entryPath(const std::vector<std::string> &Command) const {
  std::string Key = "nvcc";
  for (const std::string &Arg : Command)
    Key += '\0' + Arg;
  return Dir + "/" + llvm::utohexstr(llvm::xxh3_64bits(portable(Key)), /*LowerCase=*/true) +
         ".json";
}

std::optional<FactsCache::Stamp> FactsCache::stampOf(const std::string &Path) {
  std::lock_guard<std::mutex> Lock(StampsLock);
  auto [It, Inserted] = Stamps.try_emplace(Path);
  if (!Inserted)
    return It->second;
  if (const SourceFile *File = Tree.find(Path)) {
    It->second = Stamp{File->Content.size(), 0, File->Hash};
    return It->second;
  }
  fs::file_status Status;
  if (fs::status(Path, Status))
    return std::nullopt;
  auto Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
      Status.getLastModificationTime().time_since_epoch());
  It->second = Stamp{Status.getSize(), static_cast<int64_t>(Ns.count()), ""};
  return It->second;
}

std::optional<nlohmann::json> FactsCache::readEntry(const std::string &Path, bool Portable) {
  if (Dir.empty())
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  std::string Text =
      Portable ? replacePathPrefix((*Buffer)->getBuffer(), RootMark, jsonSpelling(Tree.Root))
               : (*Buffer)->getBuffer().str();
  nlohmann::json Entry = nlohmann::json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Entry.is_discarded() || !Entry.is_object() || !Entry.contains("stamps"))
    return std::nullopt;
  try {
    for (const auto &Saved : Entry.at("stamps")) {
      std::optional<Stamp> Now = stampOf(Saved.at("path").get<std::string>());
      if (!Now || Now->Size != Saved.at("size").get<uint64_t>() ||
          Now->ModifiedNs != Saved.at("mtime").get<int64_t>() ||
          Now->Hash != Saved.at("hash").get<std::string>())
        return std::nullopt;
    }
  } catch (const nlohmann::json::exception &) {
    return std::nullopt; // An entry from a damaged cache is a miss.
  }
  return Entry;
}

void FactsCache::writeEntry(const std::string &Final, const std::vector<std::string> &InputFiles,
                            const char *Key, nlohmann::json Payload, bool Portable) {
  if (Dir.empty() || fs::create_directories(Dir))
    return;
  nlohmann::json Stamps = nlohmann::json::array();
  for (const std::string &Path : InputFiles) {
    std::optional<Stamp> S = stampOf(Path);
    if (!S)
      return;
    Stamps.push_back(
        {{"path", Path}, {"size", S->Size}, {"mtime", S->ModifiedNs}, {"hash", S->Hash}});
  }
  nlohmann::json Entry = {{"stamps", std::move(Stamps)}, {Key, std::move(Payload)}};
  llvm::SmallString<256> Temp;
  int FD;
  if (fs::createUniqueFile(Final + ".tmp-%%%%%%", FD, Temp))
    return;
  bool Written;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    std::string Text = dumpJson(Entry);
    OS << (Portable ? replacePathPrefix(Text, jsonSpelling(Tree.Root), RootMark) : Text);
    OS.close();
    Written = !OS.has_error();
    OS.clear_error(); // A full disk makes a miss next time, not a crash now.
  }
  // A temporary left behind would litter the cache for good.
  if (!Written || fs::rename(Temp, Final))
    fs::remove(Temp);
}

std::optional<TUFacts> FactsCache::lookup(const ParseRequest &Request) {
  std::optional<nlohmann::json> Entry = readEntry(entryPath(Request));
  if (!Entry || !Entry->contains("facts"))
    return std::nullopt;
  try {
    return Entry->at("facts").get<TUFacts>();
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

void FactsCache::store(const ParseRequest &Request, const TUFacts &Facts) {
  if (Facts.Completed)
    writeEntry(entryPath(Request), Facts.InputFiles, "facts", Facts);
}

std::optional<NvccVerdict> FactsCache::lookupVerdict(const std::vector<std::string> &Command) {
  std::optional<nlohmann::json> Entry = readEntry(entryPath(Command));
  if (!Entry || !Entry->contains("nvcc"))
    return std::nullopt;
  try {
    const nlohmann::json &Saved = Entry->at("nvcc");
    NvccVerdict Verdict;
    Verdict.Ran = true;
    Verdict.Accepted = Saved.at("accepted").get<bool>();
    for (const auto &Error : Saved.at("errors"))
      Verdict.Errors.push_back({Error.at("file").get<std::string>(),
                                Error.at("line").get<unsigned>(),
                                Error.at("message").get<std::string>()});
    Verdict.Problem = Saved.at("problem").get<std::string>();
    return Verdict;
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

void FactsCache::storeVerdict(const std::vector<std::string> &Command,
                              const std::vector<std::string> &InputFiles,
                              const NvccVerdict &Verdict) {
  // Only an answer is kept: nvcc that could not run may run next time.
  if (!Verdict.Ran)
    return;
  nlohmann::json Errors = nlohmann::json::array();
  for (const CompilerError &Error : Verdict.Errors)
    Errors.push_back({{"file", Error.File}, {"line", Error.Line}, {"message", Error.Message}});
  writeEntry(entryPath(Command), InputFiles, "nvcc",
             {{"accepted", Verdict.Accepted}, {"errors", Errors}, {"problem", Verdict.Problem}});
}

} // namespace opmig::analyze

namespace opmig::analyze {

std::optional<std::vector<std::string>> FactsCache::lookupPreamble(const std::string &PchPath) {
  // A PCH names the headers it read by their paths: its entry stays where it is.
  std::optional<nlohmann::json> Entry = readEntry(PchPath + ".json", /*Portable=*/false);
  if (!Entry || !Entry->contains("preamble"))
    return std::nullopt;
  try {
    return Entry->at("preamble").get<std::vector<std::string>>();
  } catch (const nlohmann::json::exception &) {
    return std::nullopt;
  }
}

void FactsCache::storePreamble(const std::string &PchPath,
                               const std::vector<std::string> &InputFiles) {
  {
    // Looked up (absent) earlier in this run, then built.
    std::lock_guard<std::mutex> Lock(StampsLock);
    Stamps.erase(PchPath);
  }
  // The PCH itself is stamped too: a replaced or deleted one is a miss.
  std::vector<std::string> Stamped = InputFiles;
  Stamped.push_back(PchPath);
  writeEntry(PchPath + ".json", Stamped, "preamble", InputFiles, /*Portable=*/false);
}

} // namespace opmig::analyze

namespace opmig::analyze {

std::string FactsCache::keyedPath(const char *Kind, const std::string &Key) const {
  std::string Named = std::string(Kind) + '\0' + Key; // Kinds never share an entry.
  return Dir + "/" + llvm::utohexstr(llvm::xxh3_64bits(portable(Named)), /*LowerCase=*/true) +
         ".json";
}

std::optional<nlohmann::json> FactsCache::lookupEntry(const std::string &Key, const char *Kind) {
  if (Dir.empty())
    return std::nullopt;
  std::optional<nlohmann::json> Entry = readEntry(keyedPath(Kind, Key));
  if (!Entry || !Entry->contains(Kind))
    return std::nullopt;
  return std::move(Entry->at(Kind));
}

void FactsCache::storeEntry(const std::string &Key, const std::vector<std::string> &InputFiles,
                            const char *Kind, nlohmann::json Payload) {
  if (!Dir.empty())
    writeEntry(keyedPath(Kind, Key), InputFiles, Kind, std::move(Payload));
}

} // namespace opmig::analyze
