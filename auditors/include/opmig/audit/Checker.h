//===- Checker.h - Evaluates the rules of one kind --------------*- C++ -*-===//
//
// One Checker per rule kind. Checkers are registered in one explicit, sorted
// function (builtinCheckers), never by static self-registration.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CHECKER_H
#define OPMIG_AUDIT_CHECKER_H

#include "opmig/audit/Repository.h"
#include "opmig/audit/Rule.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace opmig::audit {

class Checker {
public:
  virtual ~Checker() = default;
  /// The rule kind it evaluates, e.g. `python`.
  virtual const char *kind() const = 0;
  /// Checks a rule's `match` when rules are loaded: an InputError
  /// `<origin>:<line>: <problem>` for an unknown check, a missing or
  /// ill-typed parameter, a bad regex.
  virtual llvm::Error validate(const Rule &R) const = 0;
  /// Evaluates `Rules` (all of this kind, already validated) over `Repo`,
  /// appending findings with Id, Level, File, Line, Message (captures
  /// filled) and Fix set. A file the checker cannot parse is skipped with a
  /// finding of rule `opmig-unparsable-file` (warning), never a crash.
  virtual llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                            std::vector<Finding> &Out) const = 0;
};

/// Every built-in checker, sorted by kind.
std::vector<std::unique_ptr<Checker>> builtinCheckers();

/// Fills `{name}` placeholders of `Template` from `Captures`; unknown ones
/// are left as written.
std::string fillPlaceholders(const std::string &Template,
                             const std::map<std::string, std::string> &Captures);

} // namespace opmig::audit

#endif
