//===- RuleTests.h - Each rule proves itself on its fixtures ----*- C++ -*-===//
//
// `opmig rules test` audits every fixture folder a rule lists in `tests`
// with that rule alone. Fixture lines say what they expect, in a comment
// on the line itself or alone on the line before (any of `//`, `#`,
// `<!-- -->`):
//
//   # ruleid: cache-dit-fake-naming
//   def _(x): ...
//   def _fake_merge(x): ...  # ok: cache-dit-fake-naming
//
// Path rules (and findings about a whole file, line 0) use a file `EXPECT`
// at the fixture's root with lines `ruleid: <id> <path>` / `ok: <id> <path>`.
// A rule fails when an expected finding is missing, a finding appears on an
// `ok:` line or on no annotated line at all, or its fixtures lack at least
// one must-fire and one must-not-fire annotation.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_RULETESTS_H
#define OPMIG_AUDIT_RULETESTS_H

#include "opmig/audit/Rule.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

struct RuleTestOutcome {
  std::string RuleId;
  std::string Origin;                ///< The rule file.
  unsigned Expectations = 0;         ///< Annotations checked.
  std::vector<std::string> Failures; ///< `<file>:<line>: <problem>`; empty: passed.
};

/// Runs the fixtures of every rule in `Rules`; an Error only when the audit
/// itself cannot run (an unreadable fixture is a failure of that rule).
llvm::Expected<std::vector<RuleTestOutcome>> runRuleTests(const std::vector<Rule> &Rules);

/// The fixture folder a rule's `tests` entry names: relative to `tests/`
/// beside the rule file, else to the rule file's folder.
std::string resolveFixture(const Rule &R, const std::string &Entry);

} // namespace opmig::audit

#endif
