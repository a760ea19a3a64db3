//===- CppMacroScanner.cpp - Macro invocations found by the raw lexer -----===//

#include "CppMacroScanner.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace opmig::audit {

namespace {

struct RawToken {
  clang::tok::TokenKind Kind;
  size_t Offset, Length;
  bool SpaceBefore;
};

clang::LangOptions cxxLanguage() {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus14 = Lang.CPlusPlus17 = true;
  Lang.CPlusPlus20 = Lang.LineComment = Lang.Bool = true;
  return Lang;
}

/// The tokens of `Text` outside preprocessor directives. Locations are
/// offsets: the lexer counts from a file location whose raw encoding is 1.
std::vector<RawToken> lexOutsideDirectives(const std::string &Text) {
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

/// A token's text with continued lines joined.
std::string spellingOf(const std::string &Text, const RawToken &Tok) {
  std::string Spelling = Text.substr(Tok.Offset, Tok.Length);
  for (size_t At; (At = Spelling.find("\\\n")) != std::string::npos;)
    Spelling.erase(At, 2);
  return Spelling;
}

/// The arguments of the invocation whose `(` is Tokens[Open].
std::vector<std::string> argumentsAt(const std::string &Text, const std::vector<RawToken> &Tokens,
                                     size_t Open) {
  std::vector<std::string> Arguments(1);
  unsigned Depth = 1;
  for (size_t I = Open + 1; I < Tokens.size(); ++I) {
    const RawToken &Tok = Tokens[I];
    if (Tok.Kind == clang::tok::r_paren && --Depth == 0)
      break;
    if (Tok.Kind == clang::tok::l_paren)
      ++Depth;
    if (Tok.Kind == clang::tok::comma && Depth == 1) {
      Arguments.emplace_back();
      continue;
    }
    std::string &Current = Arguments.back();
    if (Tok.SpaceBefore && !Current.empty())
      Current += ' ';
    Current += spellingOf(Text, Tok);
  }
  // `M()` has no arguments rather than one empty one.
  if (Arguments.size() == 1 && Arguments.front().empty())
    Arguments.clear();
  return Arguments;
}

std::vector<size_t> lineStarts(const std::string &Text) {
  std::vector<size_t> Starts = {0};
  for (size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      Starts.push_back(I + 1);
  return Starts;
}

} // namespace

std::vector<MacroInvocation> scanMacroInvocations(const std::string &Text,
                                                  const llvm::StringSet<> &Names) {
  std::vector<MacroInvocation> Found;
  if (Names.empty())
    return Found;
  std::vector<RawToken> Tokens = lexOutsideDirectives(Text);
  std::vector<size_t> Starts;
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    const RawToken &Tok = Tokens[I];
    if (Tok.Kind != clang::tok::raw_identifier || Tokens[I + 1].Kind != clang::tok::l_paren)
      continue;
    std::string Name = spellingOf(Text, Tok);
    if (!Names.contains(Name))
      continue;
    if (Starts.empty())
      Starts = lineStarts(Text);
    auto Line = std::upper_bound(Starts.begin(), Starts.end(), Tok.Offset) - 1;
    MacroInvocation Invocation;
    Invocation.Macro = std::move(Name);
    Invocation.Line = static_cast<unsigned>(Line - Starts.begin()) + 1;
    Invocation.Column = static_cast<unsigned>(Tok.Offset - *Line) + 1;
    Invocation.Arguments = argumentsAt(Text, Tokens, I + 1);
    Found.push_back(std::move(Invocation));
  }
  return Found;
}

} // namespace opmig::audit
