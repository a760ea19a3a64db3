//===- PreamblePruning.h - Old preambles leave the cache -------*- C++ -*-===//
//
// A preamble is about 160 MB, and nothing reuses one whose headers changed
// (a torch upgrade) or whose flags no run asks for any more. Each run that
// parses prunes the cache's preamble folder: preambles whose headers
// changed go at once; the others go when unused for a while, or when more
// than a few are kept, the least recently used first.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_PREAMBLEPRUNING_H
#define OPMIG_ANALYZE_PREAMBLEPRUNING_H

#include "opmig/analyze/FactsCache.h"

#include <chrono>
#include <string>
#include <vector>

namespace opmig::analyze {

struct PrunePolicy {
  unsigned Keep = 6;                    ///< At most this many valid ones.
  std::chrono::hours UnusedFor{24 * 7}; ///< Then they go.
  std::chrono::minutes Unfinished{60};  ///< A build without its entry, younger: in progress.
};

struct CachedPreamble {
  std::string Key; ///< The name its files share (`<key>.pch`, `<key>.pch.json`, `<key>.h`).
  std::chrono::system_clock::time_point LastUsed; ///< Written or found in the cache.
  bool HasEntry = false;                          ///< Its cache entry (`.pch.json`) and PCH exist.
  bool Valid = false;                             ///< Its entry's headers and PCH are unchanged.
};

/// The keys of `Preambles` to remove at `Now` under `Policy`.
std::vector<std::string> preamblesToPrune(std::vector<CachedPreamble> Preambles,
                                          std::chrono::system_clock::time_point Now,
                                          const PrunePolicy &Policy = {});

/// The preambles of `Folder`, checked against `Cache`.
std::vector<CachedPreamble> listPreambles(const std::string &Folder, FactsCache &Cache);

/// Removes what preamblesToPrune picks from `Folder`; returns how many
/// preambles went.
unsigned prunePreambles(const std::string &Folder, FactsCache &Cache,
                        const PrunePolicy &Policy = {});

/// Marks the preamble at `PchPath` used now (its entry's modification time).
void touchPreamble(const std::string &PchPath);

} // namespace opmig::analyze

#endif
