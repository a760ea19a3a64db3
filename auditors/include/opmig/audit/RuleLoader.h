//===- RuleLoader.h - Rule files into validated Rules -----------*- C++ -*-===//
//
// A rule file is YAML (or JSON, which is read by the same YAML parser) with
// one rule; docs/rule-authoring.md has the format. It is read through
// ConfigDocument, so every problem is an InputError
// `<file>:<line>:<col>: <problem>`, and `opmig audit` exits 2 and the
// author can jump to the place:
//
//   rules/audit/cache-dit/cache-dit-fake-naming.yaml:7:3: unknown key 'chek'
//   in 'match' of check fake-naming; did you mean 'check'?
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_RULELOADER_H
#define OPMIG_AUDIT_RULELOADER_H

#include "opmig/audit/Rule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

/// Loads every rule from `Paths` (rule files, or folders searched
/// recursively for `*.yaml`, `*.yml` and `*.json`, skipping folders named
/// `tests` that hold fixtures); an empty `Paths` means `BuiltinDir`. Rules
/// are validated (common keys, then the checker of their kind) and returned
/// sorted by id; duplicate ids are an error naming both files.
llvm::Expected<std::vector<Rule>> loadRules(const std::vector<std::string> &Paths,
                                            const std::string &BuiltinDir);

/// Parses and validates one rule file's `Text`; `Origin` is its path (the
/// id must equal its stem, without folders or extension).
llvm::Expected<Rule> parseRule(llvm::StringRef Text, const std::string &Origin);

/// Whether `R` runs under `--profile Profile`: it lists `Profile` or `any`;
/// `--profile any` runs every rule.
bool inProfile(const Rule &R, llvm::StringRef Profile);

} // namespace opmig::audit

#endif
