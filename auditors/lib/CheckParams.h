//===- CheckParams.h - The `match` parameters of cpp and python rules -*- C++ -*-===//
//
// A `cpp` or `python` rule names its check in `match.check`; every other key
// of `match` is a parameter of that check. Each checker describes its checks
// as tables of parameters, validated here when rules load, so that a typo or
// a bad regex is an InputError `<rule file>:<line>: <problem>`:
//
//   rules/audit/x.yaml:9: unknown parameter 'decorater' of check
//   decorated-function-name; expected one of: decorator, name
//
// After validation the accessors read parameters without failing.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CHECKPARAMS_H
#define OPMIG_AUDIT_CHECKPARAMS_H

#include "opmig/audit/Rule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::audit {

enum class ParamType {
  String,
  Integer,    ///< Non-negative; a YAML scalar of digits is accepted as well.
  Regex,      ///< A string that compiles in the rule regex dialect.
  StringList, ///< A sequence of strings.
  RegexList,  ///< A sequence of regexes.
  GlobList,   ///< A sequence of PathGlobs.
};

struct ParamSpec {
  const char *Name;
  ParamType Type;
  bool Required;
  /// Placeholders (`{op}`) replaced by this text before a Regex or Glob is
  /// checked, since their real values are only known per finding.
  const char *Placeholder = nullptr;
};

struct CheckSpec {
  const char *Name;
  std::vector<ParamSpec> Params;
};

/// The spec of `R`'s check among `Checks`, after checking that `match.check`
/// names one of them and that every parameter is known, present when
/// required and well typed.
llvm::Expected<const CheckSpec *> validateMatch(const Rule &R, llvm::ArrayRef<CheckSpec> Checks);

/// `match.check`.
std::string checkName(const Rule &R);
/// A String or Regex parameter; `Default` when absent.
std::string stringParam(const Rule &R, llvm::StringRef Key, llvm::StringRef Default = "");
/// An Integer parameter; `Default` when absent.
unsigned integerParam(const Rule &R, llvm::StringRef Key, unsigned Default = 0);
/// A list parameter; empty when absent.
std::vector<std::string> listParam(const Rule &R, llvm::StringRef Key);

/// Replaces every `{Name}` in `Text` by `Value`.
std::string substitute(llvm::StringRef Text, llvm::StringRef Name, llvm::StringRef Value);

} // namespace opmig::audit

#endif
