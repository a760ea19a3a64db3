//===- FactsCache.h - Per-TU parse results kept across runs -----*- C++ -*-===//
//
// A parse is keyed by its full command line (which names the TU and the
// side); an entry stays valid while every file the parse read is unchanged:
// same content hash for files of the tree, same size and modification time
// for toolkit headers. Entries name the tree's root by a mark, so that a copy
// of the tree elsewhere reads them (a precompiled preamble, which records
// its headers' paths, keeps them). One JSON file per entry, written atomically, so
// concurrent runs and interrupted runs never see half an entry. Entries live
// in one subdirectory per build of opmig (what a parse extracts changes with
// the code); those of other builds are removed once unused for a week.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_FACTSCACHE_H
#define OPMIG_ANALYZE_FACTSCACHE_H

#include "nlohmann/json_fwd.hpp"
#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUFacts.h"
#include "opmig/analyze/TUParser.h"
#include "opmig/support/NvccCheck.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace opmig::analyze {

/// The default cache directory: `$XDG_CACHE_HOME/opmig/analyze`, else
/// `$HOME/.cache/opmig/analyze`.
std::string defaultCacheDir();

/// The folder of this build of opmig in the cache at `CacheRoot`, where its
/// entries live; empty for an empty `CacheRoot`.
std::string buildCacheDir(const std::string &CacheRoot);

/// Where that build keeps the objects of `--verify` and of review's build
/// check (ObjectCache.h); empty for an empty `CacheRoot`.
std::string objectCacheDir(const std::string &CacheRoot);

class FactsCache {
public:
  /// A cache in `Dir`; an empty `Dir` disables it (`--no-cache`).
  FactsCache(const std::string &Dir, const SourceTree &Tree);

  std::optional<TUFacts> lookup(const ParseRequest &Request);
  /// Best effort: a cache that cannot be written only costs time.
  void store(const ParseRequest &Request, const TUFacts &Facts);

  /// nvcc's verdict on a TU, keyed by its command line; valid while the
  /// files the TU's Clang parses read are unchanged. Thread-safe.
  std::optional<NvccVerdict> lookupVerdict(const std::vector<std::string> &Command);
  void storeVerdict(const std::vector<std::string> &Command,
                    const std::vector<std::string> &InputFiles, const NvccVerdict &Verdict);

  /// Where precompiled preambles (Preamble.h) live: a folder of this
  /// build's cache; empty without a cache.
  std::string preambleDir() const { return Dir.empty() ? "" : Dir + "/preamble"; }
  /// The headers the preamble at `PchPath` read, when it and they are
  /// unchanged since it was stored.
  std::optional<std::vector<std::string>> lookupPreamble(const std::string &PchPath);
  void storePreamble(const std::string &PchPath, const std::vector<std::string> &InputFiles);

  /// An entry of another step that parses the tree (migrate's rewrite
  /// parses), under the same rules: `Key` names everything the payload is
  /// a function of besides the files it read, `Kind` names the payload.
  /// Valid while every one of `InputFiles` is unchanged.
  std::optional<nlohmann::json> lookupEntry(const std::string &Key, const char *Kind);
  void storeEntry(const std::string &Key, const std::vector<std::string> &InputFiles,
                  const char *Kind, nlohmann::json Payload);
  bool enabled() const { return !Dir.empty(); }

private:
  struct Stamp {
    uint64_t Size = 0;
    int64_t ModifiedNs = 0;
    std::string Hash;
  };
  std::string entryPath(const ParseRequest &Request) const;
  std::string entryPath(const std::vector<std::string> &Command) const;
  std::string keyedPath(const char *Kind, const std::string &Key) const;
  /// `Key` with the tree's root replaced by the mark.
  std::string portable(llvm::StringRef Key) const;
  std::optional<Stamp> stampOf(const std::string &Path);
  /// The payload of the entry at `Path` when every file it depends on is
  /// unchanged.
  std::optional<nlohmann::json> readEntry(const std::string &Path, bool Portable = true);
  void writeEntry(const std::string &Path, const std::vector<std::string> &InputFiles,
                  const char *Key, nlohmann::json Payload, bool Portable = true);

  std::string Dir;
  const SourceTree &Tree;
  std::map<std::string, std::optional<Stamp>> Stamps; ///< Memoized per run.
  std::mutex StampsLock; ///< Verdicts are looked up from a thread pool.
};

} // namespace opmig::analyze

#endif
