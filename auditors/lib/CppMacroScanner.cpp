//===- CppMacroScanner.cpp - Macro invocations found by the raw lexer -----===//

#include "CppMacroScanner.h"

#include "CppRawTokens.h"

#include <tuple>

namespace opmig::audit {

namespace {

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
    MacroInvocation Invocation;
    Invocation.Macro = std::move(Name);
    std::tie(Invocation.Line, Invocation.Column) = lineAndColumn(Starts, Tok.Offset);
    Invocation.Arguments = argumentsAt(Text, Tokens, I + 1);
    Found.push_back(std::move(Invocation));
  }
  return Found;
}

} // namespace opmig::audit
