//===- EntryDefinition.cpp - An entry defined in a TU, read as text -------===//

#include "opmig/validate/EntryDefinition.h"

#include "opmig/support/Errors.h"
#include "opmig/validate/Validate.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace opmig::validate {

namespace {

using llvm::StringRef;

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Runs of whitespace as one space, trimmed.
std::string collapsed(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text.trim()) {
    if (llvm::isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

/// A quoted literal from `I` (at its opening quote) blanked; returns the
/// index after it.
size_t blankLiteral(std::string &Code, size_t I) {
  char Quote = Code[I];
  size_t J = I + 1;
  while (J < Code.size() && Code[J] != Quote && Code[J] != '\n')
    J += Code[J] == '\\' ? 2 : 1;
  size_t End = std::min(J + 1, Code.size());
  for (size_t K = I; K < End; ++K)
    if (Code[K] != '\n')
      Code[K] = ' ';
  return End;
}

/// The preprocessor line at `I` (a `#` first on its line), continuations
/// included, blanked; returns the index of its last newline.
size_t blankDirective(std::string &Code, size_t I) {
  size_t J = I;
  char Previous = '\0'; // before blanking: a `\` continues the line
  for (; J < Code.size(); ++J) {
    if (Code[J] == '\n' && Previous != '\\')
      break;
    Previous = Code[J];
    if (Code[J] != '\n')
      Code[J] = ' ';
  }
  return J;
}

bool firstOnLine(const std::string &Code, size_t I) {
  for (size_t K = I; K > 0; --K) {
    char C = Code[K - 1];
    if (C == '\n')
      return true;
    if (C != ' ' && C != '\t')
      return false;
  }
  return true;
}

/// The unconditional `#include` spellings of `Text` (outside `#if`s).
std::vector<std::string> unconditionalIncludes(StringRef Text) {
  std::vector<std::string> Includes;
  llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">]");
  llvm::Regex Open("^[ \t]*#[ \t]*if"), Close("^[ \t]*#[ \t]*endif");
  int Depth = 0;
  llvm::SmallVector<StringRef> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    llvm::SmallVector<StringRef> Match;
    if (Open.match(Line))
      ++Depth;
    else if (Close.match(Line))
      Depth = std::max(0, Depth - 1);
    else if (Depth == 0 && Include.match(Line, &Match))
      Includes.push_back(Match[1].str());
  }
  return Includes;
}

/// What a `{` opens, from the code between the last `;`, `{` or `}` and it.
struct Scope {
  enum Kind { Namespace, Linkage, Other } K = Other;
  std::vector<std::string> Names; ///< `namespace a::b {`; empty: anonymous.
};

Scope scopeOpenedBy(StringRef Head) {
  Scope S;
  Head = Head.trim();
  if (Head == "extern") { // `extern "C" {`, the string blanked
    S.K = Scope::Linkage;
    return S;
  }
  Head.consume_front("inline");
  Head = Head.ltrim();
  if (!Head.consume_front("namespace"))
    return S;
  Head = Head.trim();
  if (!Head.empty() && !llvm::all_of(Head, [](char C) { return isIdentifierChar(C) || C == ':'; }))
    return S;
  S.K = Scope::Namespace;
  llvm::SmallVector<StringRef> Parts;
  Head.split(Parts, "::", -1, false);
  for (StringRef Part : Parts)
    S.Names.push_back(Part.trim().str());
  return S;
}

/// The index of the `)` closing the `(` at `Open`, or npos.
size_t matchingParen(StringRef Code, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Code.size(); ++I) {
    if (Code[I] == '(')
      ++Depth;
    else if (Code[I] == ')' && --Depth == 0)
      return I;
  }
  return StringRef::npos;
}

/// `a, std::map<int, int> b = {}, c` split at the commas outside brackets.
std::vector<StringRef> splitParameters(StringRef Text) {
  std::vector<StringRef> Parts;
  int Depth = 0, Angles = 0;
  bool InDefault = false; // after a parameter's `=`, `<` and `>` are operators
  size_t Start = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (StringRef("([{").contains(C))
      ++Depth;
    else if (StringRef(")]}").contains(C))
      --Depth;
    else if (C == '<' && !InDefault)
      ++Angles;
    else if (C == '>' && !InDefault && !(I > 0 && Text[I - 1] == '-'))
      --Angles;
    else if (C == '=' && Depth == 0 && Angles == 0)
      InDefault = true;
    else if (C == ',' && Depth == 0 && Angles <= 0) {
      Parts.push_back(Text.slice(Start, I));
      Start = I + 1;
      InDefault = false;
      Angles = 0;
    }
  }
  Parts.push_back(Text.substr(Start));
  return Parts;
}

/// A parameter without its default argument (the `=` outside brackets).
StringRef withoutDefault(StringRef Parameter) {
  int Depth = 0;
  for (size_t I = 0; I < Parameter.size(); ++I) {
    char C = Parameter[I];
    if (StringRef("([{<").contains(C))
      ++Depth;
    else if (StringRef(")]}>").contains(C))
      --Depth;
    else if (C == '=' && Depth == 0)
      return Parameter.take_front(I);
  }
  return Parameter;
}

unsigned lineAt(StringRef Code, size_t Offset) {
  return 1 + static_cast<unsigned>(Code.take_front(Offset).count('\n'));
}

/// What follows the `)` of a candidate: the offset of the body's `{`
/// (after `const`, `noexcept`, a trailing return type), or npos for a
/// declaration or a call. `Trailing` gets a trailing return type.
size_t bodyAfter(StringRef Code, size_t Close, std::string &Trailing) {
  size_t I = Close + 1;
  size_t Arrow = StringRef::npos;
  for (; I < Code.size(); ++I) {
    char C = Code[I];
    if (C == '{')
      break;
    if (C == ';' || C == '=' || C == ',' || C == ')' || C == '}')
      return StringRef::npos;
    if (C == '-' && I + 1 < Code.size() && Code[I + 1] == '>' && Arrow == StringRef::npos)
      Arrow = I + 2;
  }
  if (I >= Code.size())
    return StringRef::npos;
  if (Arrow != StringRef::npos)
    Trailing = collapsed(Code.slice(Arrow, I));
  return I;
}

const std::set<std::string> &keywords() {
  static const std::set<std::string> Words = {
      "const", "volatile", "unsigned", "signed", "int",    "long",     "short",
      "char",  "bool",     "float",    "double", "void",   "auto",     "struct",
      "class", "enum",     "typename", "std",    "size_t", "int64_t",  "int32_t",
      "at",    "c10",      "torch",    "Tensor", "extern", "noexcept", "__restrict__"};
  return Words;
}

/// The first identifier of `Signature` that `Code` (the TU, blanked)
/// declares as a type itself; empty when none.
std::string typeDeclaredIn(StringRef Code, StringRef Signature) {
  std::set<std::string> Seen;
  for (size_t I = 0; I < Signature.size();) {
    if (!isIdentifierChar(Signature[I]) || llvm::isDigit(Signature[I])) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Signature.size() && isIdentifierChar(Signature[J]))
      ++J;
    std::string Word = Signature.slice(I, J).str();
    I = J;
    if (keywords().count(Word) || !Seen.insert(Word).second)
      continue;
    const std::string Blank = "[ \t\n]";
    const std::string Before = "(^|[^A-Za-z0-9_:])";
    llvm::Regex Record(Before + "(struct|class|union|enum)" + Blank + "+((class|struct)" + Blank +
                       "+)?" + Word + Blank + "*(final" + Blank + "*)?[{:]");
    llvm::Regex Alias(Before + "using" + Blank + "+" + Word + Blank + "*=");
    llvm::Regex Typedef(Before + "typedef[^;]*[^A-Za-z0-9_]" + Word + Blank + "*;");
    if (Record.match(Code) || Alias.match(Code) || Typedef.match(Code))
      return Word;
  }
  return "";
}

/// The qualifier written before the name at `NameAt` (`ns::inner::`), as
/// names, and the offset where it starts.
std::vector<std::string> qualifierBefore(StringRef Code, size_t NameAt, size_t &Start) {
  std::vector<std::string> Names;
  Start = NameAt;
  while (true) {
    size_t I = Start;
    while (I > 0 && llvm::isSpace(Code[I - 1]))
      --I;
    if (I < 2 || Code.substr(I - 2, 2) != "::")
      break;
    I -= 2;
    while (I > 0 && llvm::isSpace(Code[I - 1]))
      --I;
    size_t End = I;
    while (I > 0 && isIdentifierChar(Code[I - 1]))
      --I;
    if (I == End) { // `::name`: the global namespace
      Start = End;
      break;
    }
    Names.insert(Names.begin(), Code.slice(I, End).str());
    Start = I;
  }
  return Names;
}

class DefinitionFinder {
public:
  DefinitionFinder(StringRef Function, StringRef Code, const std::string &File)
      : Code(Code), File(File) {
    llvm::SmallVector<StringRef> Parts;
    Function.split(Parts, "::", -1, false);
    Name = Parts.back().str();
    for (StringRef Part : llvm::ArrayRef(Parts).drop_back())
      Wanted.push_back(Part.str());
    Qualified = Parts.size() > 1;
  }

  llvm::Expected<std::optional<EntryDefinition>> find() {
    size_t Boundary = 0; // after the last `;`, `{` or `}`
    for (size_t I = 0; I < Code.size(); ++I) {
      char C = Code[I];
      if (C == '{') {
        Stack.push_back(scopeOpenedBy(Code.slice(Boundary, I)));
        Boundary = I + 1;
      } else if (C == '}') {
        if (!Stack.empty())
          Stack.pop_back();
        Boundary = I + 1;
      } else if (C == ';') {
        Boundary = I + 1;
      } else if (isIdentifierChar(C) && (I == 0 || !isIdentifierChar(Code[I - 1])) &&
                 atNamespaceScope()) {
        llvm::Expected<std::optional<EntryDefinition>> Found = candidate(I, Boundary);
        if (!Found || *Found)
          return Found;
      }
    }
    return std::nullopt;
  }

private:
  StringRef Code;
  const std::string &File;
  std::string Name;
  std::vector<std::string> Wanted;
  bool Qualified = false;
  std::vector<Scope> Stack;

  bool atNamespaceScope() const {
    return llvm::all_of(Stack, [](const Scope &S) { return S.K != Scope::Other; });
  }

  std::string where(size_t Offset) const {
    return File + ":" + std::to_string(lineAt(Code, Offset));
  }

  /// The definition when `Name` starts at `At` and a body follows.
  llvm::Expected<std::optional<EntryDefinition>> candidate(size_t At, size_t Boundary) {
    if (!Code.substr(At).starts_with(Name) ||
        (At + Name.size() < Code.size() && isIdentifierChar(Code[At + Name.size()])))
      return std::nullopt;
    size_t Open = At + Name.size();
    while (Open < Code.size() && llvm::isSpace(Code[Open]))
      ++Open;
    if (Open >= Code.size() || Code[Open] != '(')
      return std::nullopt;
    size_t Close = matchingParen(Code, Open);
    std::string Trailing;
    if (Close == StringRef::npos || bodyAfter(Code, Close, Trailing) == StringRef::npos)
      return std::nullopt;
    size_t QualifierStart = At;
    std::vector<std::string> Qualifier = qualifierBefore(Code, At, QualifierStart);
    EntryDefinition D;
    D.File = File;
    D.Line = lineAt(Code, At);
    D.Name = Name;
    bool Anonymous = false;
    for (const Scope &S : Stack) {
      Anonymous |= S.K == Scope::Namespace && S.Names.empty();
      llvm::append_range(D.Namespaces, S.Names);
    }
    llvm::append_range(D.Namespaces, Qualifier);
    std::string Head = collapsed(Code.slice(Boundary, QualifierStart));
    if (Qualified && D.Namespaces != Wanted)
      return std::nullopt; // another function of that name
    if (Anonymous)
      return inputError(Name, " is defined in an anonymous namespace (", where(At),
                        "): no other TU can call it, so the upstream registration cannot; "
                        "give it external linkage upstream, or leave out the diff and perf layers",
                        inputs::Layers);
    if (llvm::Error E = checkHead(Head, At))
      return E;
    D.ReturnType = Trailing.empty() ? Head : Trailing;
    if (Head.starts_with("extern"))
      D.ReturnType = "extern \"C\" " + collapsed(StringRef(D.ReturnType).drop_front(6));
    StringRef Inner = Code.slice(Open + 1, Close).trim();
    if (!Inner.empty() && Inner != "void")
      for (StringRef Parameter : splitParameters(Inner))
        D.Parameters.push_back(collapsed(withoutDefault(Parameter)));
    std::string Signature = D.ReturnType + " " + llvm::join(D.Parameters, ", ");
    if (std::string Type = typeDeclaredIn(Code, Signature); !Type.empty())
      return inputError("the signature of ", Name, " (", where(At), ") names the type `", Type,
                        "`, which ", File,
                        " declares itself: the upstream registration TU cannot declare ", Name,
                        " without it; move `", Type, "` to a header the TU includes");
    return D;
  }

  llvm::Error checkHead(StringRef Head, size_t At) const {
    llvm::SmallVector<StringRef> Words;
    llvm::SplitString(Head, Words, " \t\n*&<>(),");
    for (StringRef Word : Words) {
      if (Word == "static")
        return inputError(Name, " is defined `static` (", where(At),
                          "): no other TU can call it, so the upstream registration cannot; "
                          "drop `static` upstream, or leave out the diff and perf layers",
                          inputs::Layers);
      if (Word == "inline" || Word == "constexpr" || Word == "consteval")
        return inputError(Name, " is defined `", Word.str(), "` in a TU (", where(At),
                          "): the TU need not emit it for another to call; declare it in a "
                          "header upstream, or leave out the diff and perf layers",
                          inputs::Layers);
      if (Word == "template")
        return inputError(Name, " is a template (", where(At),
                          "): the upstream registration cannot declare it without its "
                          "arguments; declare an instantiation in a header upstream");
    }
    if (Head.empty())
      return inputError("the definition of ", Name, " (", where(At), ") has no return type");
    return llvm::Error::success();
  }
};

} // namespace

std::string blankedCode(StringRef Text) {
  std::string Code = Text.str();
  for (size_t I = 0; I < Code.size(); ++I) {
    char C = Code[I];
    char Next = I + 1 < Code.size() ? Code[I + 1] : '\0';
    if (C == '/' && Next == '/') {
      for (; I < Code.size() && Code[I] != '\n'; ++I)
        Code[I] = ' ';
    } else if (C == '/' && Next == '*') {
      size_t End = Code.find("*/", I + 2);
      End = End == std::string::npos ? Code.size() : End + 2;
      for (; I < End; ++I)
        if (Code[I] != '\n')
          Code[I] = ' ';
      --I;
    } else if (C == '"' || (C == '\'' && (I == 0 || !isIdentifierChar(Code[I - 1])))) {
      I = blankLiteral(Code, I) - 1;
    } else if (C == '#' && firstOnLine(Code, I)) {
      I = blankDirective(Code, I);
    }
  }
  return Code;
}

std::string EntryDefinition::qualifiedName() const {
  std::string Out;
  for (const std::string &N : Namespaces)
    Out += "::" + N;
  return Out + "::" + Name;
}

std::string EntryDefinition::declaration() const {
  std::string Declaration = ReturnType + " " + Name + "(" + llvm::join(Parameters, ", ") + ");";
  if (Namespaces.empty())
    return Declaration;
  return "namespace " + llvm::join(Namespaces, "::") + " {\n" + Declaration + "\n}";
}

llvm::Expected<std::optional<EntryDefinition>>
findEntryDefinition(StringRef Function, StringRef Text, const std::string &File) {
  std::string Code = blankedCode(Text);
  llvm::Expected<std::optional<EntryDefinition>> Found =
      DefinitionFinder(Function, Code, File).find();
  if (Found && *Found)
    (*Found)->Includes = unconditionalIncludes(Text);
  return Found;
}

} // namespace opmig::validate
