//===- RewriteParses.h - Running a wave of rewrite parses -------*- C++ -*-===//
//
// Each parse of the rewrite is answered from the cache (RewriteCache.h)
// when its inputs are unchanged; the others run in parallel, with the
// analysis' shared preamble where it applies (PreambleAttacher.h), and are
// stored. Counts what ran, for RewriteStats.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_REWRITEPARSES_H
#define OPMIG_MIGRATE_LIB_REWRITEPARSES_H

#include "ParseRecord.h"
#include "RewriteCache.h"
#include "RewriteContext.h"
#include "RewriteParse.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/analyze/PreambleAttacher.h"
#include "opmig/analyze/SourceTree.h"

#include <memory>
#include <optional>
#include <vector>

namespace opmig::migrate {

class RewriteParses {
public:
  explicit RewriteParses(const RewriteContext &Ctx);
  ~RewriteParses();

  /// The records of `Jobs`, in order.
  std::vector<ParseRecord> run(const std::vector<ParseJob> &Jobs);
  /// What ran so far (the preambles' notes included).
  RewriteStats stats() const;

private:
  analyze::ParseRequest hostRequestFor(const std::string &TU) const;

  const RewriteContext &Ctx;
  /// The tree as the analysis read it: content hashes for the cache's
  /// stamps, leading includes for the preamble. Absent when unreadable
  /// (then nothing is cached and no preamble is used).
  std::optional<analyze::SourceTree> Tree;
  std::unique_ptr<analyze::FactsCache> Facts;
  std::optional<RewriteCache> Cache;
  std::unique_ptr<analyze::PreambleAttacher> Preambles;
  RewriteStats Stats;
};

} // namespace opmig::migrate

#endif
