//===- CppBindingScanner.cpp - pybind bindings and function declarations --===//

#include "CppBindingScanner.h"

#include "CppRawTokens.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <tuple>

namespace opmig::audit {

namespace {

using clang::tok::TokenKind;

class Tokens {
public:
  explicit Tokens(const std::string &Text) : Text(Text), List(lexOutsideDirectives(Text)) {}

  size_t size() const { return List.size(); }
  TokenKind kind(size_t I) const { return I < List.size() ? List[I].Kind : clang::tok::eof; }
  bool is(size_t I, TokenKind K) const { return kind(I) == K; }
  std::string text(size_t I) const { return I < List.size() ? spellingOf(Text, List[I]) : ""; }
  bool isWord(size_t I, llvm::StringRef Word) const {
    return is(I, clang::tok::raw_identifier) && text(I) == Word;
  }
  std::pair<unsigned, unsigned> where(size_t I) {
    if (Starts.empty())
      Starts = lineStarts(Text);
    return lineAndColumn(Starts, List[I].Offset);
  }

private:
  const std::string &Text;
  std::vector<RawToken> List;
  std::vector<size_t> Starts;
};

/// The end (one past) of the qualified name `a::b::c` starting at `I`, or
/// `I` when none starts there.
size_t qualifiedNameEnd(const Tokens &T, size_t I) {
  size_t End = I;
  if (T.is(End, clang::tok::coloncolon))
    ++End;
  if (!T.is(End, clang::tok::raw_identifier))
    return I;
  ++End;
  while (T.is(End, clang::tok::coloncolon) && T.is(End + 1, clang::tok::raw_identifier))
    End += 2;
  return End;
}

std::string joined(const Tokens &T, size_t From, size_t To) {
  std::string Text;
  for (size_t I = From; I < To; ++I)
    Text += T.text(I);
  return Text;
}

/// The tokens [Begin, End) of the argument starting at `Begin`, up to the
/// comma or parenthesis that closes it.
size_t argumentEnd(const Tokens &T, size_t Begin) {
  unsigned Depth = 0, Angles = 0;
  for (size_t I = Begin; I < T.size(); ++I) {
    TokenKind K = T.kind(I);
    // Template arguments (`overload_cast<const Tensor &, int>`) hold commas
    // too: a `<` right after a name opens them.
    if (K == clang::tok::less && I > Begin && T.is(I - 1, clang::tok::raw_identifier))
      ++Angles;
    else if (K == clang::tok::greater && Angles > 0)
      --Angles;
    else if (K == clang::tok::greatergreater && Angles > 0)
      Angles -= std::min(Angles, 2u);
    else if (Angles > 0 && K == clang::tok::comma)
      continue;
    else if (K == clang::tok::l_paren || K == clang::tok::l_square || K == clang::tok::l_brace)
      ++Depth;
    else if (K == clang::tok::r_paren || K == clang::tok::r_square || K == clang::tok::r_brace) {
      if (Depth == 0)
        return I;
      --Depth;
    } else if (K == clang::tok::comma && Depth == 0)
      return I;
  }
  return T.size();
}

/// The function an argument [Begin, End) names: `&name` anywhere in it, the
/// whole argument, or the sole argument of a call; {0, 0} for none.
std::pair<size_t, size_t> boundTarget(const Tokens &T, size_t Begin, size_t End) {
  if (T.is(Begin, clang::tok::l_square))
    return {0, 0}; // A lambda.
  for (size_t I = Begin; I < End; ++I)
    if (T.is(I, clang::tok::amp))
      if (size_t NameEnd = qualifiedNameEnd(T, I + 1); NameEnd != I + 1)
        return {I + 1, NameEnd};
  if (size_t NameEnd = qualifiedNameEnd(T, Begin); NameEnd == End && NameEnd != Begin)
    return {Begin, NameEnd};
  for (size_t I = Begin; I < End; ++I)
    if (T.is(I, clang::tok::l_paren))
      if (size_t NameEnd = qualifiedNameEnd(T, I + 1);
          NameEnd != I + 1 && T.is(NameEnd, clang::tok::r_paren))
        return {I + 1, NameEnd};
  return {0, 0};
}

/// Words that are followed by `(` without declaring a function.
bool isKeyword(llvm::StringRef Word) {
  static const llvm::StringSet<> Keywords = {
      "if",      "for",      "while",    "switch",        "return",    "sizeof",   "decltype",
      "alignof", "alignas",  "noexcept", "static_assert", "throw",     "catch",    "operator",
      "typeid",  "new",      "delete",   "case",          "co_return", "requires", "explicit",
      "void",    "template", "using",    "typedef",       "else",      "do"};
  return Keywords.contains(Word) || Word.starts_with("__");
}

/// Whether the token before a qualified name ending at `NameAt` is a type's
/// end: a word, `>`, `*` or `&` (`at::Tensor merge(`, `void ns::f(`).
bool typeBefore(const Tokens &T, size_t NameAt) {
  size_t I = NameAt;
  while (I >= 2 && T.is(I - 1, clang::tok::coloncolon) && T.is(I - 2, clang::tok::raw_identifier))
    I -= 2;
  if (I == 0)
    return false;
  TokenKind K = T.kind(I - 1);
  if (K == clang::tok::raw_identifier)
    return !isKeyword(T.text(I - 1)) || T.text(I - 1) == "void";
  return K == clang::tok::greater || K == clang::tok::star || K == clang::tok::amp ||
         K == clang::tok::ampamp;
}

/// Whether the `{` at `I` opens a namespace or an `extern "C"` block.
bool opensNamespace(const Tokens &T, size_t I) {
  size_t J = I;
  while (J >= 2 && T.is(J - 1, clang::tok::raw_identifier) &&
         (T.isWord(J - 2, "namespace") || T.is(J - 2, clang::tok::coloncolon)))
    J -= 2;
  if (J >= 1 && T.isWord(J - 1, "namespace"))
    return true;
  if (J < I && T.isWord(J, "namespace"))
    return true;
  return I >= 2 && T.is(I - 1, clang::tok::string_literal) && T.isWord(I - 2, "extern");
}

} // namespace

std::vector<BoundFunction> scanBoundFunctions(const std::string &Text) {
  std::vector<BoundFunction> Found;
  if (Text.find("def") == std::string::npos)
    return Found;
  Tokens T(Text);
  for (size_t I = 0; I + 4 < T.size(); ++I) {
    if (!T.is(I, clang::tok::period) || !T.isWord(I + 1, "def") ||
        !T.is(I + 2, clang::tok::l_paren) || !T.is(I + 3, clang::tok::string_literal) ||
        !T.is(I + 4, clang::tok::comma))
      continue;
    size_t Begin = I + 5, End = argumentEnd(T, Begin);
    auto [NameBegin, NameEnd] = boundTarget(T, Begin, End);
    if (NameBegin == NameEnd)
      continue;
    BoundFunction Bound;
    Bound.PythonName = llvm::StringRef(T.text(I + 3)).trim('"').str();
    Bound.Target = joined(T, NameBegin, NameEnd);
    Bound.Name = T.text(NameEnd - 1);
    std::tie(Bound.Line, Bound.Column) = T.where(NameBegin);
    Found.push_back(std::move(Bound));
  }
  return Found;
}

std::vector<DeclaredFunction> scanDeclaredFunctions(const std::string &Text) {
  std::vector<DeclaredFunction> Found;
  Tokens T(Text);
  std::vector<bool> Braces; // true: a namespace's
  unsigned Parens = 0;
  auto AtNamespaceScope = [&] {
    return Parens == 0 && std::all_of(Braces.begin(), Braces.end(), [](bool B) { return B; });
  };
  for (size_t I = 0; I < T.size(); ++I) {
    TokenKind K = T.kind(I);
    if (K == clang::tok::l_brace)
      Braces.push_back(Parens == 0 && opensNamespace(T, I));
    else if (K == clang::tok::r_brace && !Braces.empty())
      Braces.pop_back();
    else if (K == clang::tok::l_paren)
      ++Parens;
    else if (K == clang::tok::r_paren && Parens > 0)
      --Parens;
    else if (K == clang::tok::raw_identifier && T.is(I + 1, clang::tok::l_paren) &&
             AtNamespaceScope() && !isKeyword(T.text(I)) && typeBefore(T, I))
      Found.push_back({T.text(I), T.where(I).first});
  }
  return Found;
}

} // namespace opmig::audit
