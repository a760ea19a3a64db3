//===- Gate.h - One CI step: the audit and the rule tests -------*- C++ -*-===//
//
// The library behind `opmig gate`. A repository describes its gate in
// `.opmig.yaml` at its root:
//
//   profile: cache-dit          # the audit's --profile
//   baseline: .opmig-baseline.json
//   fail-on: error              # error | warning | note
//   checks: [audit, review, rules-test, validate]
//   review: {domains: auto}     # auto: every domain with a manifest; or [names]
//   # review: {validation: [build/validate-rope.json]}  # opmig validate reports
//   validate: {domains: auto, layers: [build, import, api, fake]}  # default: every layer
//   rules: [tools/rules]        # extra rule files or folders, beside the built-in ones
//   exclude: ["tests/fixtures/**"]  # findings in these files are dropped
//   sarif: opmig.sarif          # where the SARIF log goes (relative to the root)
//   junit: opmig-junit.xml
//
// runGate runs the checks and folds every finding into one AuditResult, so
// one report (GateReport.h) covers the gate as a whole: a rule whose
// fixtures fail becomes an `opmig-rule-test` finding at its rule file, and
// each problem `opmig review` finds in a domain joins as the review's
// finding (`does-not-link`, ...), its message naming the domain. The
// `validate` check runs `opmig validate` on each domain through a callback
// (the audit library does not depend on the validators): each failing check
// joins as its finding, and the report goes to the domain's review as
// evidence, as a `review.validation` report would.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_GATE_H
#define OPMIG_AUDIT_GATE_H

#include "opmig/audit/Audit.h"
#include "opmig/audit/Review.h"
#include "opmig/audit/RuleTests.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace opmig::audit {

/// The rule id of a finding that reports a rule failing its own fixtures.
inline constexpr const char *RuleTestRuleId = "opmig-rule-test";
/// Finding::Producer of such a finding.
inline constexpr const char *RuleTestProducer = "rules-test";

/// `.opmig.yaml`, with defaults for what it leaves out.
struct GateConfig {
  std::string Profile = "any";
  std::string Baseline; ///< Relative to the root; empty: none.
  Severity FailOn = Severity::Error;
  bool RunAudit = true;
  bool RunRuleTests = false;
  bool RunReview = false;
  /// The domains `review` judges; empty: every domain with a manifest.
  std::vector<std::string> ReviewDomains;
  /// Whether `review` compiles each domain (`compile-check`); it runs with
  /// the torch python3 finds and says so where it cannot run.
  bool ReviewCompileCheck = true;
  /// `opmig validate` JSON reports (`validation`), relative to the root;
  /// each goes to the review of the domain it names.
  std::vector<std::string> ReviewValidation;
  std::vector<std::string> Rules; ///< Extra rule paths, relative to the root.
  /// Globs (PathGlob) of files whose findings the gate drops: planted
  /// violations in test fixtures, say.
  std::vector<std::string> Exclude;
  bool RunValidate = false;
  /// The domains `validate` proves; empty: every domain with a manifest.
  std::vector<std::string> ValidateDomains;
  /// Its layers; empty: every layer, a skipped one failing nothing.
  std::vector<std::string> ValidateLayers;
  std::string Sarif; ///< Relative to the root; empty: not written.
  std::string JUnit; ///< Relative to the root; empty: not written.
};

/// Parses `.opmig.yaml` text (through ConfigDocument); `Origin` names it in
/// errors. InputError `<Origin>:<line>:<col>: <problem>` for unknown keys or
/// checks, wrong types and bad severities or globs.
llvm::Expected<GateConfig> parseGateConfig(llvm::StringRef Text, const std::string &Origin);

/// Reads and parses the config at `Path` (InputError when unreadable).
llvm::Expected<GateConfig> readGateConfig(const std::string &Path);

struct GateResult {
  /// The audit's findings, the reviews' and one `opmig-rule-test` finding
  /// per fixture failure; Rules lists every audit rule that ran.
  AuditResult Combined;
  std::vector<RuleTestOutcome> RuleTests; ///< Empty when rules-test did not run.
  std::vector<ReviewResult> Reviews;      ///< One per reviewed domain.
  /// One line per validated domain: each layer's status.
  std::vector<std::string> Validations;
};

/// How the caller reviews one domain on its own (a command line, say): each
/// review finding's fix names it, and the library knows no command's flags.
using ReviewCommandFor = std::function<std::string(const std::string &Domain)>;

/// What validating one domain gave the gate.
struct DomainValidation {
  std::vector<Finding> Findings; ///< The failing checks' (producer `validate`).
  std::string ReportPath;        ///< Its JSON report, for the domain's review.
  std::string Summary;           ///< Each layer's status, on one line.
  std::string Command;           ///< How to run it on its own.
};

/// Runs `opmig validate` on one domain of the gated root with `Layers`
/// (empty: all); InputError when it cannot start (no manifest, ...).
using ValidateDomainFor = std::function<llvm::Expected<DomainValidation>(
    const std::string &Domain, const std::vector<std::string> &Layers)>;

/// Runs the checks of `Config` on the tree at `Root` with the built-in rules
/// of `BuiltinRulesDir` and the config's extra rules; reviews measure test
/// coverage against `LayersFile` (empty: no coverage), with the validate
/// reports of the config as evidence. An untested required layer is a
/// warning: it fails the gate only under `fail-on: warning`. InputError,
/// besides a review's, for a validate report of a domain the gate does not
/// review. `Validate` runs the `validate` check; a config that asks for it
/// without one is an InputError.
llvm::Expected<GateResult> runGate(const GateConfig &Config, const std::string &Root,
                                   const std::string &BuiltinRulesDir,
                                   const std::string &LayersFile,
                                   const ReviewCommandFor &ReviewCommand,
                                   const ValidateDomainFor &Validate = {});

/// A path of `.opmig.yaml` (reports, baseline, rules) resolved against the
/// gated root; an absolute one stays as it is.
std::string pathUnderRoot(const std::string &Root, const std::string &Path);

/// pathUnderRoot() for a path that opmig will write (`sarif:`, `junit:`):
/// InputError naming `Key` when it is absolute, leaves the root through
/// `..`, holds a control character, or passes through a symbolic link (the
/// driver adds which flag writes elsewhere).
llvm::Expected<std::string> reportPathUnderRoot(const std::string &Root, const std::string &Path,
                                                llvm::StringRef Key);

} // namespace opmig::audit

#endif
