//===- CppRawTokens.cpp - A C++ file's tokens from Clang's raw lexer ------===//

#include "CppRawTokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace opmig::audit {

namespace {

clang::LangOptions cxxLanguage() {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = true;
  Lang.CPlusPlus20 = Lang.LineComment = Lang.Bool = true;
  return Lang;
}

} // namespace

std::vector<RawToken> lexOutsideDirectives(const std::string &Text) {
  // Locations are offsets: the lexer counts from a file location whose raw
  // encoding is 1.
  const clang::SourceLocation Start = clang::SourceLocation::getFromRawEncoding(1);
  clang::LangOptions Lang = cxxLanguage();
  clang::Lexer Lex(Start, Lang, Text.data(), Text.data(), Text.data() + Text.size());
  std::vector<RawToken> Tokens;
  bool InDirective = false;
  clang::Token Tok;
  for (Lex.LexFromRawLexer(Tok); Tok.isNot(clang::tok::eof); Lex.LexFromRawLexer(Tok)) {
    // A directive ends at the first token that starts a line; continued
    // lines do not start one.
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(clang::tok::hash);
    if (InDirective)
      continue;
    Tokens.push_back({Tok.getKind(), Tok.getLocation().getRawEncoding() - 1u, Tok.getLength(),
                      Tok.hasLeadingSpace() || Tok.isAtStartOfLine()});
  }
  return Tokens;
}

std::string spellingOf(const std::string &Text, const RawToken &Tok) {
  std::string Spelling = Text.substr(Tok.Offset, Tok.Length);
  for (size_t At; (At = Spelling.find("\\\n")) != std::string::npos;)
    Spelling.erase(At, 2);
  return Spelling;
}

std::vector<size_t> lineStarts(const std::string &Text) {
  std::vector<size_t> Starts = {0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
  return Starts;
}

std::pair<unsigned, unsigned> lineAndColumn(const std::vector<size_t> &Starts, size_t Offset) {
  auto Line = std::upper_bound(Starts.begin(), Starts.end(), Offset) - 1;
  return {static_cast<unsigned>(Line - Starts.begin()) + 1,
          static_cast<unsigned>(Offset - *Line) + 1};
}

} // namespace opmig::audit
