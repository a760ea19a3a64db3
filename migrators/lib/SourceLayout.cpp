#include "SourceLayout.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace opmig::migrate {

namespace {

/// CUDA C++ as the kernels are written: `::` is one token, `//` comments.
clang::LangOptions rawLangOptions() {
  clang::LangOptions Opts;
  Opts.CPlusPlus = Opts.CPlusPlus11 = Opts.CPlusPlus14 = Opts.CPlusPlus17 = Opts.CPlusPlus20 = 1;
  Opts.CUDA = 1;
  Opts.LineComment = 1;
  Opts.Bool = 1;
  return Opts;
}

bool isComment(const RawToken &Tok) { return Tok.Kind == clang::tok::comment; }

} // namespace

bool Directive::isInclude() const {
  return Name == "include" || Name == "include_next" || Name == "import";
}

bool Directive::isConditional() const {
  return Name == "if" || Name == "ifdef" || Name == "ifndef" || Name == "elif" ||
         Name == "elifdef" || Name == "elifndef" || Name == "else" || Name == "endif";
}

SourceLayout::SourceLayout(std::string Content) : Text(std::move(Content)) {
  LineStarts.push_back(0);
  for (unsigned I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
  lex();
}

void SourceLayout::lex() {
  static const clang::LangOptions LangOpts = rawLangOptions();
  const char *Begin = Text.data();
  clang::Lexer Lex(clang::SourceLocation(), LangOpts, Begin, Begin, Begin + Text.size());
  Lex.SetCommentRetentionState(true);
  clang::Token Tok;
  while (true) {
    Lex.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    unsigned End = static_cast<unsigned>(Lex.getBufferLocation() - Begin);
    Tokens.push_back(
        {Tok.getKind(), End - Tok.getLength(), Tok.getLength(), Tok.isAtStartOfLine()});
  }
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind != clang::tok::hash || !Tokens[I].StartOfLine)
      continue;
    size_t Last = I;
    while (Last + 1 < Tokens.size() && !Tokens[Last + 1].StartOfLine)
      ++Last;
    recordDirective(I, Last);
    I = Last;
  }
}

void SourceLayout::recordDirective(size_t Hash, size_t Last) {
  Directive D;
  D.Begin = Tokens[Hash].Offset;
  D.End = Tokens[Hash].end();
  for (size_t I = Hash; I <= Last; ++I)
    if (!isComment(Tokens[I]))
      D.End = Tokens[I].end();
  size_t NameIndex = Hash + 1;
  if (NameIndex <= Last && Tokens[NameIndex].Kind == clang::tok::raw_identifier)
    D.Name = spelling(Tokens[NameIndex]).str();
  Directives.push_back(D);
  if (!D.isInclude() || NameIndex + 1 > Last)
    return;
  const RawToken &First = Tokens[NameIndex + 1];
  IncludeSpelling Include;
  Include.DirectiveBegin = D.Begin;
  Include.Begin = First.Offset;
  if (First.Kind == clang::tok::string_literal && First.Length >= 2) {
    Include.End = First.end();
    Include.Name = spelling(First).drop_front().drop_back().str();
  } else if (First.Kind == clang::tok::less) {
    // The raw lexer does not know it is in a directive, so `<a/b.h>` comes
    // as several tokens: the name runs to the `>` on this line.
    size_t Close = llvm::StringRef(Text).find_first_of(">\n", First.end());
    if (Close == llvm::StringRef::npos || Text[Close] != '>')
      return;
    Include.End = static_cast<unsigned>(Close + 1);
    Include.Name = Text.substr(First.end(), Close - First.end());
    Include.Angled = true;
  } else {
    return; // `#include MACRO`: resolved only by a parse.
  }
  Includes.push_back(std::move(Include));
}

unsigned SourceLayout::lineOf(unsigned Offset) const {
  return static_cast<unsigned>(std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset) -
                               LineStarts.begin());
}

unsigned SourceLayout::lineStart(unsigned Offset) const { return LineStarts[lineOf(Offset) - 1]; }

unsigned SourceLayout::nextLineStart(unsigned Offset) const {
  unsigned Line = lineOf(Offset);
  return Line < LineStarts.size() ? LineStarts[Line] : static_cast<unsigned>(Text.size());
}

unsigned SourceLayout::previousLineStart(unsigned Offset) const {
  unsigned Line = lineOf(Offset);
  return Line >= 2 ? LineStarts[Line - 2] : LineStarts[0];
}

bool SourceLayout::isBlankLine(unsigned LineStart) const {
  for (unsigned I = LineStart; I < Text.size() && Text[I] != '\n'; ++I)
    if (Text[I] != ' ' && Text[I] != '\t' && Text[I] != '\r')
      return false;
  return true;
}

bool SourceLayout::startsLine(unsigned Offset) const {
  for (unsigned I = lineStart(Offset); I < Offset; ++I)
    if (Text[I] != ' ' && Text[I] != '\t')
      return false;
  return true;
}

bool SourceLayout::endsLine(unsigned Offset) const {
  auto It = std::lower_bound(Tokens.begin(), Tokens.end(), Offset,
                             [](const RawToken &Tok, unsigned O) { return Tok.Offset < O; });
  return It == Tokens.end() || It->Offset >= nextLineStart(Offset) ||
         (isComment(*It) && spelling(*It).starts_with("//"));
}

unsigned SourceLayout::commentBlockAbove(unsigned Offset) const {
  unsigned Start = lineStart(Offset);
  std::optional<size_t> Index = codeTokenFrom(Start);
  size_t I = Index ? *Index : Tokens.size();
  // Walk back over comments that each sit alone on the lines just above.
  while (I > 0) {
    const RawToken &Prev = Tokens[I - 1];
    if (!isComment(Prev) || !startsLine(Prev.Offset))
      break;
    unsigned PrevEndLine = lineOf(Prev.end() - 1);
    if (PrevEndLine + 1 != lineOf(Start))
      break;
    Start = lineStart(Prev.Offset);
    --I;
  }
  return Start;
}

std::optional<size_t> SourceLayout::tokenAt(unsigned Offset) const {
  auto It = std::lower_bound(Tokens.begin(), Tokens.end(), Offset,
                             [](const RawToken &Tok, unsigned O) { return Tok.Offset < O; });
  if (It == Tokens.end() || It->Offset != Offset)
    return std::nullopt;
  return It - Tokens.begin();
}

std::optional<size_t> SourceLayout::codeTokenFrom(unsigned Offset) const {
  auto It = std::lower_bound(Tokens.begin(), Tokens.end(), Offset,
                             [](const RawToken &Tok, unsigned O) { return Tok.Offset < O; });
  for (; It != Tokens.end(); ++It)
    if (!isComment(*It))
      return It - Tokens.begin();
  return std::nullopt;
}

} // namespace opmig::migrate
