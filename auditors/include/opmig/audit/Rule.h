//===- Rule.h - A policy rule, as data ---------------------------*- C++ -*-===//
//
// Rules live in YAML (or JSON) files under rules/audit/, one per rule; the
// format is in docs/rule-authoring.md. A Rule keeps its kind-specific
// `match` as JSON: the checker of that kind validates and interprets it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_RULE_H
#define OPMIG_AUDIT_RULE_H

#include "nlohmann/json.hpp"
#include "opmig/support/ConfigDocument.h"
#include "opmig/support/Finding.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::audit {

/// A case the spec itself excepts from a rule (`exemptions:` in the rule
/// file): a finding of the rule that matches it is dropped, and reported as
/// exempted. Each one quotes the spec sentence that grants it.
struct Exemption {
  std::string Id;                              ///< Kebab-case, unique within the rule.
  std::vector<std::string> Paths;              ///< The finding's file matches one (empty: any).
  std::vector<std::string> Outside;            ///< The finding's file matches none of these.
  std::map<std::string, std::string> Captures; ///< Capture name -> regex it must match.
  std::string Spec;                            ///< The sentence granting it, quoted.
  unsigned Line = 0;                           ///< Where it starts in the rule file.
};

struct Rule {
  std::string Id;
  Severity Level = Severity::Error;
  std::vector<std::string> Profiles; ///< `any` matches every profile.
  std::string Kind;                  ///< `path`, `text`, `doc-reference`, `cpp`, `python`.
  std::vector<std::string> Files;    ///< Globs the rule applies to.
  std::vector<std::string> Exclude;
  std::string Message; ///< May hold `{capture}` placeholders filled by the checker.
  std::string Fix;
  std::string Spec; ///< The sentence of the convention it enforces.
  nlohmann::json Match;
  std::vector<Exemption> Exemptions;
  std::vector<std::string> Tests; ///< Fixture folders, relative to the rule file's folder.
  std::string Origin;             ///< The rule file.
  unsigned Line = 0;              ///< Where the rule starts in it.
  /// Where each key of `match` is in Origin (`""`: `match` itself), for
  /// checkers' error messages.
  std::map<std::string, ConfigLocation> MatchLocations;
};

/// Whether `R` applies to `RelativePath` (its Files globs, minus Exclude).
bool appliesTo(const Rule &R, const std::string &RelativePath);

/// The first exemption of `R` covering a finding in `File` with `Captures`;
/// null when none does.
const Exemption *exemptionFor(const Rule &R, const std::string &File,
                              const std::map<std::string, std::string> &Captures);

} // namespace opmig::audit

#endif
