//===- Suppressions.h - Inline `opmig: allow(...)` comments -----*- C++ -*-===//
//
//   x = partial(f)  # opmig: allow(cache-dit-no-partial-alias) kept for v1 callers
//
//   // opmig: allow(cache-dit-namespace, cache-dit-pybind-unique) vendored as is
//   PYBIND11_MODULE(_C, m) {
//
// A suppression covers findings of the rules it names on its own line and
// on the next line. Without a reason it suppresses nothing and is itself a
// finding (opmig-suppression-without-reason, error); one that covers no
// finding of a rule that ran is opmig-unused-suppression (warning).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_SUPPRESSIONS_H
#define OPMIG_AUDIT_SUPPRESSIONS_H

#include "opmig/audit/Repository.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

namespace opmig::audit {

inline constexpr const char *SuppressionWithoutReasonId = "opmig-suppression-without-reason";
inline constexpr const char *UnusedSuppressionId = "opmig-unused-suppression";

struct Suppression {
  std::string File;
  unsigned Line = 0; ///< 1-based line of the comment.
  std::vector<std::string> RuleIds;
  std::string Reason; ///< Trimmed; empty when none was given.
};

/// Every suppression comment in `Text` (`//`, `#`, `/*` or `<!--` followed
/// by `opmig: allow(ids) reason`).
std::vector<Suppression> findSuppressions(llvm::StringRef Text, const std::string &File);

/// Marks the findings that suppressions in `Repo` cover as Suppressed (with
/// their Reason) and appends the findings about suppressions themselves.
/// Unused suppressions are reported only for ids in `RulesRun`, since a
/// rule that did not run cannot have been suppressed. A suppression naming
/// an id that is neither in `RulesRun` nor in `KnownRules` is reported too
/// (unless `KnownRules` is empty: the caller does not know every rule).
void applySuppressions(const Repository &Repo, const std::set<std::string> &RulesRun,
                       std::vector<Finding> &Findings,
                       const std::set<std::string> &KnownRules = {});

} // namespace opmig::audit

#endif
