//===- TemplateRenderer.cpp - A small Mustache subset over JSON -----------===//
//
// Three steps: tokenize (tags and text, with lines), drop the lines that a
// standalone section or comment tag leaves behind, build a tree of sections;
// then render the tree against a stack of JSON frames.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/TemplateRenderer.h"

#include "TemplateSyntax.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <variant>
#include <vector>

namespace opmig::migrate {

using nlohmann::json;

namespace {

enum class TokenKind { Text, Variable, Section, Inverted, Close, Comment };

struct Token {
  TokenKind Kind;
  std::string Value; ///< Text, or the tag's name.
  unsigned Line;     ///< Where the token starts.
};

struct Node {
  TokenKind Kind; ///< Text, Variable, Section or Inverted.
  std::string Value;
  unsigned Line;
  std::vector<Node> Children;
};

template <typename T> using OrProblem = std::variant<T, TemplateProblem>;

bool isNameChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '-'; }

/// `.`, or dot-separated non-empty components of name characters.
bool isValidName(llvm::StringRef Name) {
  if (Name == ".")
    return true;
  llvm::SmallVector<llvm::StringRef> Parts;
  Name.split(Parts, '.');
  return llvm::all_of(
      Parts, [](llvm::StringRef Part) { return !Part.empty() && llvm::all_of(Part, isNameChar); });
}

/// The tag between `{{` and `}}`, classified and checked.
OrProblem<Token> classifyTag(llvm::StringRef Body, unsigned Line) {
  llvm::StringRef Trimmed = Body.trim();
  if (Trimmed.empty())
    return TemplateProblem{Line, "empty tag '{{}}'"};
  char Sigil = Trimmed.front();
  if (Sigil == '!')
    return Token{TokenKind::Comment, "", Line};
  if (llvm::StringRef("{&><=").contains(Sigil))
    return TemplateProblem{Line, "unsupported tag '{{" + Body.str() +
                                     "}}' (no escaping, partials or delimiter changes)"};
  TokenKind Kind = TokenKind::Variable;
  if (Sigil == '#' || Sigil == '^' || Sigil == '/') {
    Kind =
        Sigil == '#' ? TokenKind::Section : (Sigil == '^' ? TokenKind::Inverted : TokenKind::Close);
    Trimmed = Trimmed.drop_front().trim();
  }
  bool DotAllowed = Kind == TokenKind::Variable;
  if (!isValidName(Trimmed) || (Trimmed == "." && !DotAllowed))
    return TemplateProblem{Line, "invalid name in tag '{{" + Body.str() + "}}'"};
  return Token{Kind, Trimmed.str(), Line};
}

OrProblem<std::vector<Token>> tokenize(llvm::StringRef Template) {
  std::vector<Token> Tokens;
  unsigned Line = 1;
  size_t Pos = 0;
  while (Pos < Template.size()) {
    size_t Open = Template.find("{{", Pos);
    llvm::StringRef Text = Template.slice(Pos, Open);
    if (!Text.empty())
      Tokens.push_back({TokenKind::Text, Text.str(), Line});
    Line += Text.count('\n');
    if (Open == llvm::StringRef::npos)
      break;
    size_t Close = Template.find("}}", Open + 2);
    if (Close == llvm::StringRef::npos)
      return TemplateProblem{Line, "'{{' is never closed"};
    llvm::StringRef Body = Template.slice(Open + 2, Close);
    OrProblem<Token> Tag = classifyTag(Body, Line);
    if (auto *Problem = std::get_if<TemplateProblem>(&Tag))
      return *Problem;
    Tokens.push_back(std::get<Token>(Tag));
    Line += Body.count('\n');
    Pos = Close + 2;
  }
  return Tokens;
}

bool standaloneKind(TokenKind Kind) {
  return Kind == TokenKind::Section || Kind == TokenKind::Inverted || Kind == TokenKind::Close ||
         Kind == TokenKind::Comment;
}

bool isBlank(llvm::StringRef Text) { return Text.find_first_not_of(" \t\r") == Text.npos; }

/// Removes the indentation and the line break around section and comment
/// tags that stand alone on their line, so they leave no blank line. The
/// checks look at the original texts; the cuts are applied afterwards, as
/// one text between two standalone tags may lose both its ends.
void stripStandaloneLines(std::vector<Token> &Tokens) {
  size_t Count = Tokens.size();
  // Per text token: the kept range [Keep.first, Keep.second).
  std::vector<std::pair<size_t, size_t>> Keep(Count);
  for (size_t I = 0; I < Count; ++I)
    Keep[I] = {0, Tokens[I].Value.size()};
  auto IsText = [&](size_t I) { return Tokens[I].Kind == TokenKind::Text; };
  for (size_t I = 0; I < Count; ++I) {
    if (!standaloneKind(Tokens[I].Kind))
      continue;
    // The line starts at the template's start or after a newline in the
    // text before, with only blanks in between.
    bool StartsLine = I == 0;
    size_t TailStart = 0;
    if (I > 0 && IsText(I - 1)) {
      llvm::StringRef Before = Tokens[I - 1].Value;
      size_t LastNewline = Before.rfind('\n');
      TailStart = LastNewline == Before.npos ? 0 : LastNewline + 1;
      StartsLine = isBlank(Before.drop_front(TailStart)) && (LastNewline != Before.npos || I == 1);
    }
    bool EndsLine = I + 1 == Count;
    size_t HeadEnd = 0;
    if (I + 1 < Count && IsText(I + 1)) {
      llvm::StringRef After = Tokens[I + 1].Value;
      size_t FirstNewline = After.find('\n');
      HeadEnd = FirstNewline == After.npos ? After.size() : FirstNewline + 1;
      EndsLine =
          isBlank(After.take_front(FirstNewline)) && (FirstNewline != After.npos || I + 2 == Count);
    }
    if (!StartsLine || !EndsLine)
      continue;
    if (I > 0)
      Keep[I - 1].second = std::min(Keep[I - 1].second, TailStart);
    if (I + 1 < Count)
      Keep[I + 1].first = std::max(Keep[I + 1].first, HeadEnd);
  }
  for (size_t I = 0; I < Count; ++I)
    if (IsText(I)) {
      auto [First, Last] = Keep[I];
      Tokens[I].Value = First < Last ? Tokens[I].Value.substr(First, Last - First) : "";
    }
}

OrProblem<std::vector<Node>> buildTree(const std::vector<Token> &Tokens) {
  // Stack of open sections; the bottom is the template's root.
  std::vector<Node> Open(1, Node{TokenKind::Section, "", 1, {}});
  for (const Token &T : Tokens) {
    switch (T.Kind) {
    case TokenKind::Comment:
      break;
    case TokenKind::Text:
      if (!T.Value.empty())
        Open.back().Children.push_back({T.Kind, T.Value, T.Line, {}});
      break;
    case TokenKind::Variable:
      Open.back().Children.push_back({T.Kind, T.Value, T.Line, {}});
      break;
    case TokenKind::Section:
    case TokenKind::Inverted:
      Open.push_back({T.Kind, T.Value, T.Line, {}});
      break;
    case TokenKind::Close: {
      if (Open.size() == 1)
        return TemplateProblem{T.Line, "'{{/" + T.Value + "}}' closes no open section"};
      if (Open.back().Value != T.Value)
        return TemplateProblem{T.Line, "'{{/" + T.Value + "}}' closes section '" +
                                           Open.back().Value + "' opened at line " +
                                           std::to_string(Open.back().Line)};
      Node Done = std::move(Open.back());
      Open.pop_back();
      Open.back().Children.push_back(std::move(Done));
      break;
    }
    }
  }
  if (Open.size() > 1)
    return TemplateProblem{Open.back().Line, "section '" + Open.back().Value + "' is never closed"};
  return std::move(Open.front().Children);
}

OrProblem<std::vector<Node>> parse(llvm::StringRef Template) {
  OrProblem<std::vector<Token>> Tokens = tokenize(Template);
  if (auto *Problem = std::get_if<TemplateProblem>(&Tokens))
    return *Problem;
  stripStandaloneLines(std::get<std::vector<Token>>(Tokens));
  return buildTree(std::get<std::vector<Token>>(Tokens));
}

/// Renders a tree against a stack of frames: the context, then one frame per
/// section entered.
class Renderer {
public:
  explicit Renderer(const json &Context) { Frames.push_back(&Context); }

  std::optional<TemplateProblem> render(const std::vector<Node> &Nodes, std::string &Out) {
    for (const Node &N : Nodes)
      if (auto Problem = renderNode(N, Out))
        return Problem;
    return std::nullopt;
  }

private:
  std::vector<const json *> Frames;

  /// The value of `Name`: its first component is looked up from the
  /// innermost frame outwards, the others inside that value.
  const json *lookup(llvm::StringRef Name) const {
    if (Name == ".")
      return Frames.back();
    llvm::SmallVector<llvm::StringRef> Parts;
    Name.split(Parts, '.');
    const json *Value = nullptr;
    for (const json *Frame : llvm::reverse(Frames))
      if (Frame->is_object() && Frame->contains(Parts.front().str())) {
        Value = &(*Frame)[Parts.front().str()];
        break;
      }
    for (llvm::StringRef Part : llvm::drop_begin(Parts)) {
      if (!Value || !Value->is_object() || !Value->contains(Part.str()))
        return nullptr;
      Value = &(*Value)[Part.str()];
    }
    return Value;
  }

  static bool truthy(const json &Value) {
    if (Value.is_boolean())
      return Value.get<bool>();
    if (Value.is_number())
      return Value != 0;
    if (Value.is_string())
      return !Value.get_ref<const std::string &>().empty();
    if (Value.is_array())
      return !Value.empty();
    return Value.is_object();
  }

  std::optional<TemplateProblem> renderNode(const Node &N, std::string &Out) {
    if (N.Kind == TokenKind::Text) {
      Out += N.Value;
      return std::nullopt;
    }
    const json *Value = lookup(N.Value);
    if (N.Kind == TokenKind::Inverted)
      return !Value || !truthy(*Value) ? render(N.Children, Out) : std::nullopt;
    if (!Value)
      return TemplateProblem{N.Line, "unknown name '" + N.Value + "'"};
    if (N.Kind == TokenKind::Variable)
      return renderValue(N, *Value, Out);
    if (Value->is_array()) {
      for (const json &Element : *Value)
        if (auto Problem = renderWithFrame(N.Children, Element, Out))
          return Problem;
      return std::nullopt;
    }
    return truthy(*Value) ? renderWithFrame(N.Children, *Value, Out) : std::nullopt;
  }

  std::optional<TemplateProblem> renderWithFrame(const std::vector<Node> &Nodes, const json &Frame,
                                                 std::string &Out) {
    Frames.push_back(&Frame);
    auto Problem = render(Nodes, Out);
    Frames.pop_back();
    return Problem;
  }

  static std::optional<TemplateProblem> renderValue(const Node &N, const json &Value,
                                                    std::string &Out) {
    if (Value.is_string())
      Out += Value.get_ref<const std::string &>();
    else if (Value.is_boolean())
      Out += Value.get<bool>() ? "true" : "false";
    else if (Value.is_number())
      Out += dumpJson(Value);
    else if (!Value.is_null())
      return TemplateProblem{N.Line, "'" + N.Value + "' is " +
                                         (Value.is_array() ? "a list" : "an object") +
                                         ", not a value (use a section)"};
    return std::nullopt;
  }
};

} // namespace

std::optional<TemplateProblem> checkTemplateSyntax(llvm::StringRef Template) {
  OrProblem<std::vector<Node>> Tree = parse(Template);
  if (auto *Problem = std::get_if<TemplateProblem>(&Tree))
    return *Problem;
  return std::nullopt;
}

llvm::Expected<std::string> renderTemplate(const std::string &Template, const json &Context,
                                           const std::string &Origin) {
  OrProblem<std::vector<Node>> Tree = parse(Template);
  std::optional<TemplateProblem> Problem;
  std::string Out;
  if (auto *SyntaxProblem = std::get_if<TemplateProblem>(&Tree))
    Problem = *SyntaxProblem;
  else
    Problem = Renderer(Context).render(std::get<std::vector<Node>>(Tree), Out);
  if (Problem)
    return inputError(Origin, ":", std::to_string(Problem->Line), ": ", Problem->Message);
  return Out;
}

} // namespace opmig::migrate
