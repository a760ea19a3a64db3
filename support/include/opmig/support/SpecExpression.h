//===- SpecExpression.h - Constraints over a spec's dims --------*- C++ -*-===//
//
// The constraints of a validation spec are tiny integer expressions over the
// op's dim names, parsed here by recursive descent (never evaluated by a
// shell or a Python `eval`):
//
//   constraint := or
//   or         := and ('||' and)*
//   and        := compare ('&&' compare)*
//   compare    := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
//   sum        := product (('+' | '-') product)*
//   product    := unary (('*' | '/' | '%') unary)*
//   unary      := '-' unary | '(' or ')' | NUMBER | NAME
//
// NAME is a C identifier (a dim), NUMBER a decimal integer. Comparisons
// give truth values and take numbers; `&&` and `||` take truth values; a
// constraint is a truth value (`D % 8 == 0`, `H <= 128 && D % 8 == 0`).
// Arithmetic is on int64 and fails on overflow and on division by zero.
//
// print() writes a constraint back as C++ or Python source, each dim spelled
// as the caller says (`x.size(1) % 8 == 0`), for checks generated from it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_SPECEXPRESSION_H
#define OPMIG_SUPPORT_SPECEXPRESSION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace opmig {

class SpecExpression {
public:
  /// Parses a constraint. A plain StringError `column N: problem` (1-based,
  /// in bytes) when it is not one; longer than MaxLength bytes or nested
  /// deeper than MaxDepth is an error too.
  static llvm::Expected<SpecExpression> parse(llvm::StringRef Text);

  static constexpr size_t MaxLength = 1000;
  static constexpr unsigned MaxDepth = 32;

  /// The dim names it uses, sorted, each once.
  std::vector<std::string> names() const;

  /// Its truth for the dims' values; an error names a dim without a value,
  /// an overflow or a division by zero.
  llvm::Expected<bool> holds(const std::map<std::string, int64_t> &Dims) const;

  /// The languages print() writes.
  enum class Syntax {
    Cpp,    ///< As parsed: C++'s operators mean the grammar's.
    Python, ///< `and`, `or`, and `//` for `/`.
  };

  /// The expression as source text of `Lang`, each dim spelled by `Spell`
  /// (its name when `Spell` is empty), with parentheses only where the
  /// operators' precedence needs them. `Spell` must return an operand that
  /// binds as tightly as a call (`x.size(1)`). Python's `//` and `%` round
  /// towards minus infinity, C++'s towards zero: the two agree while the
  /// operands are not negative, as sizes are.
  std::string print(Syntax Lang = Syntax::Cpp,
                    const std::function<std::string(llvm::StringRef)> &Spell = {}) const;

  struct Node;

private:
  explicit SpecExpression(std::shared_ptr<const Node> Root) : Root(std::move(Root)) {}
  std::shared_ptr<const Node> Root;
};

} // namespace opmig

#endif
