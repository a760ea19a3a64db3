//===- Audit.h - Run rules over a repository --------------------*- C++ -*-===//
//
// The library behind `opmig audit`:
//
//   AuditOptions Options;
//   Options.Root = "path/to/cache-dit";
//   Options.Profile = "cache-dit";
//   Options.BuiltinRulesDir = "rules/audit";  // the driver resolves it
//   llvm::Expected<AuditResult> Result = runAudit(Options);
//   bool Fails = Result && hasFailures(Result->Findings, Options.FailOn);
//
// It loads and validates the rules, reads the tree once, lets each checker
// evaluate the rules of its kind, then applies inline suppressions,
// fingerprints, the baseline and `ChangedSince`. It never prints.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_AUDIT_H
#define OPMIG_AUDIT_AUDIT_H

#include "opmig/audit/Repository.h"
#include "opmig/audit/Rule.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace opmig::audit {

/// Finding::Producer of the audit's findings.
inline constexpr const char *AuditProducer = "audit";

struct AuditOptions {
  std::string Root;                   ///< The audited tree.
  std::string Profile = "any";        ///< See inProfile in RuleLoader.h.
  std::vector<std::string> RulePaths; ///< Empty: the rules in BuiltinRulesDir.
  std::string BuiltinRulesDir;
  std::string BaselinePath; ///< Empty: no baseline.
  /// A git ref: only findings in files changed since it (`git diff
  /// --name-only REF`, deleted files included) or untracked are kept.
  std::string ChangedSince;
  Severity FailOn = Severity::Error;
};

/// The options of AuditOptions that the audit's messages name (see InputName
/// in Errors.h).
namespace inputs {
inline constexpr InputName Profile{"audit.Profile"};
inline constexpr InputName BaselinePath{"audit.BaselinePath"};
inline constexpr InputName ChangedSince{"audit.ChangedSince"};
} // namespace inputs

struct AuditResult {
  std::string Root;
  std::string Profile;
  std::vector<Rule> Rules;       ///< The rules that ran, sorted by id.
  std::vector<Finding> Findings; ///< Sorted by file, line, column, rule.
  /// Findings an exemption of their rule covers (Finding::Exemption set):
  /// cases the spec excepts, kept apart so that reports can count them.
  std::vector<Finding> Exempted;
  std::map<std::string, double> CheckerSeconds; ///< Wall time per rule kind.
  size_t FilesAudited = 0;
};

/// Runs the audit `Options` describes. InputError for bad rules, a missing
/// root, an unreadable baseline or an unknown git ref.
llvm::Expected<AuditResult> runAudit(const AuditOptions &Options);

/// Evaluates `Rules` (validated) over `Repo` with the built-in checkers and
/// applies suppressions and fingerprints; no baseline, no ChangedSince.
/// `KnownRuleIds`: every rule id loaded (of every profile), so that a
/// suppression naming none of them is reported; empty: not checked.
llvm::Expected<AuditResult> auditRepository(const Repository &Repo, std::vector<Rule> Rules,
                                            const std::set<std::string> &KnownRuleIds = {});

/// Sets each finding's Fingerprint (assignFingerprints, anchored on the
/// trimmed text of its line): code moving above a finding leaves it
/// unchanged.
void computeFingerprints(const Repository &Repo, std::vector<Finding> &Findings);

/// Sorts by file, line, column, rule id, message.
void sortFindings(std::vector<Finding> &Findings);

/// Whether a New finding at or above `FailOn` remains.
bool hasFailures(const std::vector<Finding> &Findings, Severity FailOn);

} // namespace opmig::audit

#endif
