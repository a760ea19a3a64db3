//===- FactsCache.h - Per-TU parse results kept across runs -----*- C++ -*-===//
//
// A parse is keyed by its full command line (which names the TU and the
// side); an entry stays valid while every file the parse read is unchanged:
// same content hash for files of the tree, same size and modification time
// for toolkit headers. One JSON file per entry, written atomically, so
// concurrent runs and interrupted runs never see half an entry. Entries live
// in one subdirectory per build of opmig (what a parse extracts changes with
// the code); those of other builds are removed once unused for a week.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_FACTSCACHE_H
#define OPMIG_ANALYZE_FACTSCACHE_H

#include "opmig/analyze/SourceTree.h"
#include "opmig/analyze/TUFacts.h"
#include "opmig/analyze/TUParser.h"

#include <map>
#include <optional>
#include <string>

namespace opmig::analyze {

/// The default cache directory: `$XDG_CACHE_HOME/opmig/analyze`, else
/// `$HOME/.cache/opmig/analyze`.
std::string defaultCacheDir();

class FactsCache {
public:
  /// A cache in `Dir`; an empty `Dir` disables it (`--no-cache`).
  FactsCache(const std::string &Dir, const SourceTree &Tree);

  std::optional<TUFacts> lookup(const ParseRequest &Request);
  /// Best effort: a cache that cannot be written only costs time.
  void store(const ParseRequest &Request, const TUFacts &Facts);

private:
  struct Stamp {
    uint64_t Size = 0;
    int64_t ModifiedNs = 0;
    std::string Hash;
  };
  std::string entryPath(const ParseRequest &Request) const;
  std::optional<Stamp> stampOf(const std::string &Path);

  std::string Dir;
  const SourceTree &Tree;
  std::map<std::string, std::optional<Stamp>> Stamps; ///< Memoized per run.
};

} // namespace opmig::analyze

#endif
