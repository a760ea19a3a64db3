//===- MatchParams.h - Reading a rule's `match` in checkers -----*- C++ -*-===//
//
// Checkers validate their parameters when rules load; every problem names
// the rule file and the parameter's line. Shared by the path, text and
// doc-reference checkers.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_MATCHPARAMS_H
#define OPMIG_AUDIT_MATCHPARAMS_H

#include "opmig/audit/Rule.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::audit {

class MatchParams {
public:
  explicit MatchParams(const Rule &R) : R(R) {}

  /// `<origin>:<line>:<col>` of the parameter `Key`, else of `match`.
  std::string where(const std::string &Key) const;
  /// InputError `<where(Key)>: rule '<id>': <Problem>`.
  llvm::Error error(const std::string &Key, const std::string &Problem) const;
  /// An error for the first key of `match` not in `Allowed`, worded as
  /// unknownKeyMessage() words every unknown key.
  llvm::Error allowOnly(llvm::ArrayRef<llvm::StringRef> Allowed) const;
  bool has(const char *Key) const { return R.Match.contains(Key); }
  /// A non-empty string (`""` when absent and not `Required`).
  llvm::Expected<std::string> string(const char *Key, bool Required) const;
  /// A list of non-empty strings (empty when absent and not `Required`).
  llvm::Expected<std::vector<std::string>> strings(const char *Key, bool Required) const;
  /// A string that compiles as a rule regex with at least `MinGroups` groups.
  llvm::Error regex(const char *Key, bool Required, unsigned MinGroups = 0) const;

private:
  const Rule &R;
};

/// A finding of `R` with its severity, message and fix filled from `Captures`.
Finding makeFinding(const Rule &R, const std::string &File, unsigned Line, unsigned Column,
                    const std::map<std::string, std::string> &Captures);

} // namespace opmig::audit

#endif
