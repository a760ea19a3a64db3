//===- RegexSyntax.cpp - The regex dialect of rule files ------------------===//

#include "opmig/audit/RegexSyntax.h"

namespace opmig::audit {

namespace {

/// POSIX spelling of a class escape, for use inside a bracket expression
/// (`Negated` ones have none there).
const char *classBody(char Escape) {
  switch (Escape) {
  case 'd':
  case 'D':
    return "0-9";
  case 's':
  case 'S':
    return "[:space:]";
  case 'w':
  case 'W':
    return "_[:alnum:]";
  default:
    return nullptr;
  }
}

/// Length of a `(?:`, `(?P<name>` or `(?<name>` opener at `Pos`; 0 if none.
size_t groupOpenerLength(llvm::StringRef Pattern, size_t Pos) {
  llvm::StringRef Rest = Pattern.substr(Pos);
  if (Rest.starts_with("(?:"))
    return 3;
  size_t NameStart = Rest.starts_with("(?P<") ? 4 : Rest.starts_with("(?<") ? 3 : 0;
  if (NameStart == 0 || Rest.substr(NameStart).starts_with("=") ||
      Rest.substr(NameStart).starts_with("!"))
    return 0; // Not a named group (a lookbehind, which the error check reports).
  size_t Close = Rest.find('>', NameStart);
  return Close == llvm::StringRef::npos ? 0 : Close + 1;
}

} // namespace

std::string translateRegex(llvm::StringRef Pattern) {
  std::string Out;
  bool InBracket = false;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    char C = Pattern[I];
    if (C == '\\' && I + 1 < Pattern.size()) {
      char E = Pattern[++I];
      const char *Body = classBody(E);
      bool Negated = E == 'D' || E == 'S' || E == 'W';
      if (!Body)
        Out.append({'\\', E});
      else if (InBracket)
        Out += Body; // `[\d_]` -> `[0-9_]`; negated forms cannot nest here.
      else
        Out += std::string(Negated ? "[^" : "[") + Body + "]";
      continue;
    }
    if (!InBracket && C == '(') {
      if (size_t Length = groupOpenerLength(Pattern, I)) {
        Out += '(';
        I += Length - 1;
        continue;
      }
    }
    if (C == '[' && !InBracket) {
      InBracket = true;
      Out += C;
      // A `]` right after `[` or `[^` is a literal member.
      if (I + 1 < Pattern.size() && Pattern[I + 1] == '^')
        Out += Pattern[++I];
      if (I + 1 < Pattern.size() && Pattern[I + 1] == ']')
        Out += Pattern[++I];
      continue;
    }
    if (C == ']' && InBracket)
      InBracket = false;
    Out += C;
  }
  return Out;
}

llvm::Regex compileRegex(llvm::StringRef Pattern, llvm::Regex::RegexFlags Flags) {
  return llvm::Regex(translateRegex(Pattern), Flags);
}

std::optional<std::string> regexError(llvm::StringRef Pattern) {
  for (const char *Unsupported : {"\\b", "\\B", "(?=", "(?!", "(?<=", "(?<!"})
    if (Pattern.contains(Unsupported))
      return "'" + std::string(Unsupported) +
             "' is not supported (POSIX extended regex with \\d \\s \\w)";
  llvm::Regex Compiled = compileRegex(Pattern);
  std::string Error;
  if (!Compiled.isValid(Error))
    return Error;
  return std::nullopt;
}

} // namespace opmig::audit
