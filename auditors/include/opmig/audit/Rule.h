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
#include "opmig/audit/Finding.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::audit {

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
  std::vector<std::string> Tests; ///< Fixture folders, relative to the rule file's folder.
  std::string Origin;             ///< The rule file.
  unsigned Line = 0;              ///< Where the rule starts in it.
  /// Line of each key of `match` in Origin, for checkers' error messages.
  std::map<std::string, unsigned> MatchLines;
};

/// Whether `R` applies to `RelativePath` (its Files globs, minus Exclude).
bool appliesTo(const Rule &R, const std::string &RelativePath);

} // namespace opmig::audit

#endif
