//===- CppRawTokens.h - A C++ file's tokens from Clang's raw lexer -*- C++ -*-===//
//
// The token-level cpp checks (macro invocations, pybind bindings, function
// declarations) read files as written, before any preprocessing: headers
// missing on the auditing machine (torch, pybind11) must hide nothing. The
// raw lexer skips comments, keeps string literals whole and joins continued
// lines; preprocessor directives are dropped.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_CPPRAWTOKENS_H
#define OPMIG_AUDIT_CPPRAWTOKENS_H

#include "clang/Basic/TokenKinds.h"

#include <string>
#include <vector>

namespace opmig::audit {

struct RawToken {
  clang::tok::TokenKind Kind;
  size_t Offset, Length;
  bool SpaceBefore;
};

/// The tokens of `Text` outside preprocessor directives, in order.
std::vector<RawToken> lexOutsideDirectives(const std::string &Text);

/// A token's text with continued lines joined.
std::string spellingOf(const std::string &Text, const RawToken &Tok);

/// The offset each line of `Text` starts at.
std::vector<size_t> lineStarts(const std::string &Text);

/// 1-based (line, column) of `Offset`, given `lineStarts(Text)`.
std::pair<unsigned, unsigned> lineAndColumn(const std::vector<size_t> &Starts, size_t Offset);

} // namespace opmig::audit

#endif
