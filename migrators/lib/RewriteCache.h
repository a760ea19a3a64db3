//===- RewriteCache.h - Rewrite parses kept across runs ---------*- C++ -*-===//
//
// A rewrite parse's record (ParseRecord.h) is a function of the parse's
// command line, the files it read and the rewrite's own inputs (the ported
// files and their target paths, the renames, the wrap namespace, the
// include style, the definitions and include lines to leave out). It is
// kept in the analysis' cache (FactsCache.h: one folder per opmig build,
// atomic entries, stamps of every file read: content hash for the tree's
// files, size and modification time for the others), keyed by the command
// line and those inputs, so a re-run of an unchanged migration parses
// nothing and any change of an input misses.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_REWRITECACHE_H
#define OPMIG_MIGRATE_LIB_REWRITECACHE_H

#include "ParseRecord.h"
#include "RewriteContext.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/TUParser.h"

#include <optional>
#include <string>

namespace opmig::migrate {

class RewriteCache {
public:
  RewriteCache(const RewriteContext &Ctx, analyze::FactsCache &Cache);

  /// `Request` is the parse's, without its preamble (a parse with one has
  /// the record of one without); `Probe` the text of a probe main file.
  std::optional<ParseRecord> lookup(const analyze::ParseRequest &Request, const std::string &Probe);
  void store(const analyze::ParseRequest &Request, const std::string &Probe,
             const ParseRecord &Record);

private:
  std::string keyOf(const analyze::ParseRequest &Request, const std::string &Probe) const;

  analyze::FactsCache &Cache;
  std::string ContextKey; ///< The rewrite's inputs every parse reads.
};

} // namespace opmig::migrate

#endif
