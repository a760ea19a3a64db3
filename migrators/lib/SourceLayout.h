//===- SourceLayout.h - Raw-lexed view of one source file -------*- C++ -*-===//
//
// One file lexed by Clang's raw lexer (no preprocessing, comments kept), with
// its lines and preprocessor directives. Used where the AST has no answer:
// the comment block above a definition, the directives a wrap must not cross,
// `#include`s in branches no parse entered, and names left after rewriting.
// Raw lexing sees every `#if` branch, so it never depends on a configuration.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_SOURCELAYOUT_H
#define OPMIG_MIGRATE_LIB_SOURCELAYOUT_H

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

struct RawToken {
  clang::tok::TokenKind Kind = clang::tok::unknown;
  unsigned Offset = 0;
  unsigned Length = 0;
  bool StartOfLine = false;

  unsigned end() const { return Offset + Length; }
};

/// A preprocessor directive: `#` through its last token (continuation lines
/// included).
struct Directive {
  std::string Name; ///< `include`, `if`, `define`, ...; empty for a null directive.
  unsigned Begin = 0;
  unsigned End = 0;

  bool isInclude() const;
  /// `#if` ... `#endif` and friends: a wrap never spans one.
  bool isConditional() const;
};

/// The file name of an `#include` as written.
struct IncludeSpelling {
  unsigned DirectiveBegin = 0; ///< Offset of the `#`.
  unsigned Begin = 0, End = 0; ///< The name with its quotes or angle brackets.
  std::string Name;            ///< Without delimiters.
  bool Angled = false;
};

class SourceLayout {
public:
  explicit SourceLayout(std::string Text);

  llvm::StringRef text() const { return Text; }
  const std::vector<RawToken> &tokens() const { return Tokens; }
  const std::vector<Directive> &directives() const { return Directives; }
  const std::vector<IncludeSpelling> &includes() const { return Includes; }
  llvm::StringRef spelling(const RawToken &Tok) const {
    return llvm::StringRef(Text).substr(Tok.Offset, Tok.Length);
  }

  /// 1-based line of `Offset`.
  unsigned lineOf(unsigned Offset) const;
  unsigned lineStart(unsigned Offset) const;
  /// Offset just past the newline ending `Offset`'s line (the file size on
  /// the last line).
  unsigned nextLineStart(unsigned Offset) const;
  /// Start of the line before the one holding `Offset`; `Offset`'s line
  /// start on the first line.
  unsigned previousLineStart(unsigned Offset) const;
  bool isBlankLine(unsigned LineStart) const;
  /// Only spaces or tabs between the line start and `Offset`.
  bool startsLine(unsigned Offset) const;
  /// Only spaces, tabs or one `//` comment between `Offset` and the line end.
  bool endsLine(unsigned Offset) const;
  /// Start of the comment lines directly above `Offset`'s line (no blank
  /// line between, nothing but comments on them), else `Offset`'s line start.
  unsigned commentBlockAbove(unsigned Offset) const;

  /// Index of the token starting at `Offset`.
  std::optional<size_t> tokenAt(unsigned Offset) const;
  /// Index of the first token, comments skipped, at or after `Offset`.
  std::optional<size_t> codeTokenFrom(unsigned Offset) const;

private:
  void lex();
  void recordDirective(size_t HashIndex, size_t EndIndex);

  std::string Text;
  std::vector<unsigned> LineStarts;
  std::vector<RawToken> Tokens;
  std::vector<Directive> Directives;
  std::vector<IncludeSpelling> Includes;
};

} // namespace opmig::migrate

#endif
