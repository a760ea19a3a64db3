//===- ReviewKinds.h - The kinds of problem a review reports ----*- C++ -*-===//
//
// Each problem `opmig review` finds is an opmig::Finding whose id is its
// kind (`missing-file`, ..., `does-not-link`) and whose producer is
// `review`. The kinds are the review's rules: reviewRules() describes every
// one, so that SARIF and JUnit list them all, whether or not they fired.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_REVIEWKINDS_H
#define OPMIG_AUDIT_REVIEWKINDS_H

#include "opmig/report/RuleCatalog.h"
#include "opmig/support/Finding.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// Finding::Producer of the review's findings.
inline constexpr const char *ReviewProducer = "review";

enum class ReviewKind {
  MissingFile,       ///< In the manifest, not in the target.
  OverCopy,          ///< In the native dir, neither migrated nor generated.
  MissingProvenance, ///< A migrated file whose first line does not name its upstream.
  EditedGlue,        ///< Generated file or block changed since the migration.
  StaleProvenance,   ///< Upstream changed (or vanished) since the migration.
  NameLeak,          ///< An upstream name in the public API or an old namespace in code.
  UntestedLayer,     ///< A validation layer the spec requires has no test.
  DoesNotCompile,    ///< A TU of the domain that nvcc rejects as it is on disk.
  DoesNotLink,       ///< A symbol the linked domain uses and nothing defines.
};

/// `missing-file`, `over-copy`, `missing-provenance`, `edited-glue`,
/// `stale-provenance`, `name-leak`, `untested-layer`, `does-not-compile`,
/// `does-not-link`: the id of its findings.
const char *toString(ReviewKind K);

/// A finding of kind `K` at `Path` (relative to the target root; the
/// upstream path for stale provenance), `Line` 0 when about the whole file.
/// An untested layer is a warning, every other kind an error.
Finding reviewFinding(ReviewKind K, std::string Path, std::string Message, unsigned Line = 0);

/// Whether `F` is a review finding of kind `K`.
bool isReviewKind(const Finding &F, ReviewKind K);

/// Every kind, with what it means and how to fix it, in declaration order.
std::vector<report::RuleInfo> reviewRules();

} // namespace opmig::audit

#endif
