//===- SpecExpression.cpp - Constraints over a spec's dims ----------------===//

#include "opmig/support/SpecExpression.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <set>

namespace opmig {

struct SpecExpression::Node {
  enum Kind { Number, Name, Negate, Binary } K = Number;
  int64_t Value = 0;
  std::string Text;     ///< The name, or the binary operator.
  bool IsTruth = false; ///< A comparison or a logical operator.
  std::shared_ptr<const Node> Left, Right;
};

namespace {

using Node = SpecExpression::Node;
using NodePtr = std::shared_ptr<const Node>;

llvm::Error failure(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

class Parser {
public:
  explicit Parser(llvm::StringRef Text) : Text(Text) {}

  llvm::Expected<NodePtr> parseConstraint() {
    llvm::Expected<NodePtr> Root = parseOr();
    if (!Root)
      return Root.takeError();
    skipSpace();
    if (Pos != Text.size())
      return error("unexpected '" + Text.substr(Pos, 1) + "'");
    if (!(*Root)->IsTruth)
      return failure("a constraint must be a comparison (such as `D % 8 == 0`), not a number");
    return Root;
  }

private:
  llvm::StringRef Text;
  size_t Pos = 0;
  unsigned Depth = 0;

  llvm::Error error(const llvm::Twine &Problem) const {
    return failure("column " + llvm::Twine(Pos + 1) + ": " + Problem);
  }

  void skipSpace() {
    while (Pos < Text.size() && llvm::isSpace(Text[Pos]))
      ++Pos;
  }

  /// Consumes the first of `Operators` that follows, longest first.
  std::optional<llvm::StringRef> accept(llvm::ArrayRef<llvm::StringRef> Operators) {
    skipSpace();
    for (llvm::StringRef Op : Operators)
      if (Text.substr(Pos).starts_with(Op)) {
        Pos += Op.size();
        return Op;
      }
    return std::nullopt;
  }

  static NodePtr binary(llvm::StringRef Op, NodePtr Left, NodePtr Right, bool IsTruth) {
    auto N = std::make_shared<Node>();
    N->K = Node::Binary;
    N->Text = Op.str();
    N->IsTruth = IsTruth;
    N->Left = std::move(Left);
    N->Right = std::move(Right);
    return N;
  }

  /// One left-associative level: operands from `Next`, each of the wanted
  /// kind (truth values for `&&`/`||`, numbers otherwise).
  llvm::Expected<NodePtr> level(llvm::ArrayRef<llvm::StringRef> Operators, bool TakesTruth,
                                llvm::Expected<NodePtr> (Parser::*Next)()) {
    size_t Start = Pos;
    llvm::Expected<NodePtr> Left = (this->*Next)();
    if (!Left)
      return Left.takeError();
    while (std::optional<llvm::StringRef> Op = accept(Operators)) {
      if ((*Left)->IsTruth != TakesTruth)
        return operandError(*Op, TakesTruth, Start);
      size_t RightStart = Pos;
      llvm::Expected<NodePtr> Right = (this->*Next)();
      if (!Right)
        return Right.takeError();
      if ((*Right)->IsTruth != TakesTruth)
        return operandError(*Op, TakesTruth, RightStart);
      *Left = binary(*Op, std::move(*Left), std::move(*Right), TakesTruth);
    }
    return Left;
  }

  llvm::Error operandError(llvm::StringRef Op, bool TakesTruth, size_t At) {
    Pos = At;
    skipSpace();
    return error("'" + Op + "' takes " + (TakesTruth ? "comparisons" : "numbers") + ", not " +
                 (TakesTruth ? "a number" : "a comparison"));
  }

  llvm::Expected<NodePtr> parseOr() { return level({"||"}, true, &Parser::parseAnd); }
  llvm::Expected<NodePtr> parseAnd() { return level({"&&"}, true, &Parser::parseCompare); }

  llvm::Expected<NodePtr> parseCompare() {
    size_t Start = Pos;
    llvm::Expected<NodePtr> Left = parseSum();
    if (!Left)
      return Left.takeError();
    std::optional<llvm::StringRef> Op = accept({"==", "!=", "<=", ">=", "<", ">"});
    if (!Op)
      return Left;
    if ((*Left)->IsTruth)
      return operandError(*Op, false, Start);
    size_t RightStart = Pos;
    llvm::Expected<NodePtr> Right = parseSum();
    if (!Right)
      return Right.takeError();
    if ((*Right)->IsTruth)
      return operandError(*Op, false, RightStart);
    skipSpace();
    if (accept({"==", "!=", "<=", ">=", "<", ">"}))
      return error("comparisons do not chain; join them with &&");
    return binary(*Op, std::move(*Left), std::move(*Right), true);
  }

  llvm::Expected<NodePtr> parseSum() { return level({"+", "-"}, false, &Parser::parseProduct); }
  llvm::Expected<NodePtr> parseProduct() {
    return level({"*", "/", "%"}, false, &Parser::parseUnary);
  }

  llvm::Expected<NodePtr> parseUnary() {
    if (++Depth > SpecExpression::MaxDepth)
      return error("nested deeper than " + llvm::Twine(SpecExpression::MaxDepth) + " levels");
    llvm::Expected<NodePtr> Result = parsePrimary();
    --Depth;
    return Result;
  }

  llvm::Expected<NodePtr> parsePrimary() {
    skipSpace();
    if (Pos == Text.size())
      return error("expected a number, a dim name or '(' at the end");
    if (accept({"-"})) {
      size_t Start = Pos;
      llvm::Expected<NodePtr> Operand = parseUnary();
      if (!Operand)
        return Operand.takeError();
      if ((*Operand)->IsTruth)
        return operandError("-", false, Start);
      auto N = std::make_shared<Node>();
      N->K = Node::Negate;
      N->Left = std::move(*Operand);
      return NodePtr(N);
    }
    if (accept({"("})) {
      llvm::Expected<NodePtr> Inner = parseOr();
      if (!Inner)
        return Inner.takeError();
      if (!accept({")"}))
        return error("expected ')'");
      return Inner;
    }
    if (llvm::isDigit(Text[Pos]))
      return parseNumber();
    if (llvm::isAlpha(Text[Pos]) || Text[Pos] == '_')
      return parseName();
    return error("expected a number, a dim name or '(', not '" + Text.substr(Pos, 1) + "'");
  }

  llvm::Expected<NodePtr> parseNumber() {
    size_t Start = Pos;
    while (Pos < Text.size() && llvm::isAlnum(Text[Pos]))
      ++Pos;
    llvm::StringRef Digits = Text.slice(Start, Pos);
    auto N = std::make_shared<Node>();
    if (Digits.getAsInteger(10, N->Value)) {
      Pos = Start;
      return error("'" + Digits + "' is not a decimal integer of 64 bits");
    }
    return NodePtr(N);
  }

  llvm::Expected<NodePtr> parseName() {
    size_t Start = Pos;
    while (Pos < Text.size() && (llvm::isAlnum(Text[Pos]) || Text[Pos] == '_'))
      ++Pos;
    auto N = std::make_shared<Node>();
    N->K = Node::Name;
    N->Text = Text.slice(Start, Pos).str();
    return NodePtr(N);
  }
};

void collectNames(const Node &N, std::set<std::string> &Out) {
  if (N.K == Node::Name)
    Out.insert(N.Text);
  if (N.Left)
    collectNames(*N.Left, Out);
  if (N.Right)
    collectNames(*N.Right, Out);
}

llvm::Expected<int64_t> arithmetic(llvm::StringRef Op, int64_t L, int64_t R) {
  int64_t Out = 0;
  bool Overflow = false;
  if (Op == "+")
    Overflow = __builtin_add_overflow(L, R, &Out);
  else if (Op == "-")
    Overflow = __builtin_sub_overflow(L, R, &Out);
  else if (Op == "*")
    Overflow = __builtin_mul_overflow(L, R, &Out);
  else if (R == 0)
    return failure("division by zero");
  else if (L == INT64_MIN && R == -1)
    Overflow = true;
  else
    Out = Op == "/" ? L / R : L % R;
  if (Overflow)
    return failure("'" + Op + "' overflows 64 bits");
  return Out;
}

bool compare(llvm::StringRef Op, int64_t L, int64_t R) {
  if (Op == "==")
    return L == R;
  if (Op == "!=")
    return L != R;
  if (Op == "<")
    return L < R;
  if (Op == "<=")
    return L <= R;
  if (Op == ">")
    return L > R;
  return L >= R;
}

/// Numbers and truth values alike as int64 (a truth value is 0 or 1).
llvm::Expected<int64_t> evaluate(const Node &N, const std::map<std::string, int64_t> &Dims) {
  switch (N.K) {
  case Node::Number:
    return N.Value;
  case Node::Name: {
    auto It = Dims.find(N.Text);
    if (It == Dims.end())
      return failure("dim '" + N.Text + "' has no value");
    return It->second;
  }
  case Node::Negate: {
    llvm::Expected<int64_t> V = evaluate(*N.Left, Dims);
    if (!V)
      return V;
    return arithmetic("-", 0, *V);
  }
  case Node::Binary:
    break;
  }
  llvm::Expected<int64_t> L = evaluate(*N.Left, Dims);
  if (!L)
    return L;
  // `&&` and `||` short-circuit, so `D != 0 && 64 % D == 0` holds for D = 0.
  if (N.Text == "&&" && !*L)
    return 0;
  if (N.Text == "||" && *L)
    return 1;
  llvm::Expected<int64_t> R = evaluate(*N.Right, Dims);
  if (!R)
    return R;
  if (N.Text == "&&" || N.Text == "||")
    return *R != 0;
  if (N.IsTruth)
    return compare(N.Text, *L, *R);
  return arithmetic(N.Text, *L, *R);
}

/// How tightly a node binds: `||` loosest, names and numbers tightest.
int precedence(const Node &N) {
  if (N.K == Node::Number || N.K == Node::Name)
    return 7;
  if (N.K == Node::Negate)
    return 6;
  return llvm::StringSwitch<int>(N.Text)
      .Case("||", 1)
      .Case("&&", 2)
      .Cases({"+", "-"}, 4)
      .Cases({"*", "/", "%"}, 5)
      .Default(3); // A comparison.
}

struct Printer {
  SpecExpression::Syntax Lang;
  const std::function<std::string(llvm::StringRef)> &Spell;

  std::string op(const std::string &Op) const {
    if (Lang == SpecExpression::Syntax::Cpp)
      return Op;
    return llvm::StringSwitch<std::string>(Op)
        .Case("&&", "and")
        .Case("||", "or")
        .Case("/", "//")
        .Default(Op);
  }

  /// `N`, in parentheses when it binds less tightly than `Least`.
  std::string operand(const Node &N, int Least) const {
    std::string Text = print(N);
    return precedence(N) < Least ? "(" + Text + ")" : Text;
  }

  std::string print(const Node &N) const {
    switch (N.K) {
    case Node::Number:
      return std::to_string(N.Value);
    case Node::Name:
      return Spell ? Spell(N.Text) : N.Text;
    case Node::Negate:
      // `-(-D)`, never `--D` (a decrement in C++).
      return "-" + operand(*N.Left, N.Left->K == Node::Negate ? 7 : 6);
    case Node::Binary:
      break;
    }
    // Left-associative: a right operand of the same precedence needs
    // parentheses (`a - (b - c)`); comparisons do not chain.
    int Own = precedence(N);
    return operand(*N.Left, Own) + " " + op(N.Text) + " " + operand(*N.Right, Own + 1);
  }
};

} // namespace

llvm::Expected<SpecExpression> SpecExpression::parse(llvm::StringRef Text) {
  if (Text.size() > MaxLength)
    return failure("longer than " + llvm::Twine(MaxLength) + " characters");
  llvm::Expected<NodePtr> Root = Parser(Text).parseConstraint();
  if (!Root)
    return Root.takeError();
  return SpecExpression(std::move(*Root));
}

std::vector<std::string> SpecExpression::names() const {
  std::set<std::string> Names;
  collectNames(*Root, Names);
  return {Names.begin(), Names.end()};
}

std::string SpecExpression::print(Syntax Lang,
                                  const std::function<std::string(llvm::StringRef)> &Spell) const {
  return Printer{Lang, Spell}.print(*Root);
}

llvm::Expected<bool> SpecExpression::holds(const std::map<std::string, int64_t> &Dims) const {
  llvm::Expected<int64_t> Value = evaluate(*Root, Dims);
  if (!Value)
    return Value.takeError();
  return *Value != 0;
}

} // namespace opmig
