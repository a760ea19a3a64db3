//===- RewriteParse.h - One parse of a rewrite ------------------*- C++ -*-===//
//
// Runs the Clang frontend once (one TU, one side) with the rewrite's
// callbacks and AST passes, and returns what it found as a ParseRecord.
// Clang errors are tolerated (the AST Clang recovered is used); function
// bodies outside the ported files are skipped, since nothing there is
// rewritten.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_REWRITEPARSE_H
#define OPMIG_MIGRATE_LIB_REWRITEPARSE_H

#include "ParseRecord.h"
#include "RewriteContext.h"
#include "opmig/analyze/TUFacts.h"
#include "opmig/analyze/TUParser.h"

#include <string>
#include <vector>

namespace opmig::migrate {

struct ParseJob {
  std::string Name;     ///< Upstream relative path of the TU or probed header.
  std::string MainFile; ///< Absolute.
  std::vector<std::string> Flags;
  analyze::ParseSide Side = analyze::ParseSide::Host;
  /// When set, `MainFile` does not exist: it is this text (a probe that
  /// includes a header no TU includes).
  std::string ProbeText;
};

/// The analysis' request for the job's parse (without a preamble).
analyze::ParseRequest parseRequestOf(const RewriteContext &Ctx, const ParseJob &Job);

/// Parses with `Request` (parseRequestOf(Job), perhaps with a preamble
/// attached). A parse with a preamble that reports errors is repeated
/// without it: only a plain parse's errors count, as in the analysis.
ParseRecord runParse(const RewriteContext &Ctx, const ParseJob &Job,
                     const analyze::ParseRequest &Request);

} // namespace opmig::migrate

#endif
