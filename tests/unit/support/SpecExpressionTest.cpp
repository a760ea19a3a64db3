// The constraint grammar of validation specs
// (support/include/opmig/support/SpecExpression.h).

#include "opmig/support/SpecExpression.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

std::string parseError(llvm::StringRef Text) {
  llvm::Expected<SpecExpression> E = SpecExpression::parse(Text);
  return E ? "" : llvm::toString(E.takeError());
}

/// The truth of `Text` for `Dims`, or the error as text.
std::string truth(llvm::StringRef Text, const std::map<std::string, int64_t> &Dims) {
  llvm::Expected<SpecExpression> E = SpecExpression::parse(Text);
  if (!E)
    return "parse: " + llvm::toString(E.takeError());
  llvm::Expected<bool> Holds = E->holds(Dims);
  if (!Holds)
    return "eval: " + llvm::toString(Holds.takeError());
  return *Holds ? "true" : "false";
}

TEST(SpecExpressionTest, EvaluatesWithCsPrecedence) {
  EXPECT_EQ(truth("D % 8 == 0", {{"D", 64}}), "true");
  EXPECT_EQ(truth("D % 8 == 0", {{"D", 60}}), "false");
  EXPECT_EQ(truth("B * H + 1 == 7", {{"B", 2}, {"H", 3}}), "true");
  EXPECT_EQ(truth("B * (H + 1) == 8", {{"B", 2}, {"H", 3}}), "true");
  EXPECT_EQ(truth("10 - 4 - 3 == 3", {}), "true");
  EXPECT_EQ(truth("-D < 0 && D / 2 >= 3", {{"D", 7}}), "true");
  EXPECT_EQ(truth("H <= 128 || D != D", {{"H", 256}, {"D", 1}}), "false");
  EXPECT_EQ(truth("(H > 1 || H < 0) && H != 5", {{"H", 2}}), "true");
}

TEST(SpecExpressionTest, LogicalOperatorsShortCircuit) {
  EXPECT_EQ(truth("D != 0 && 64 % D == 0", {{"D", 0}}), "false");
  EXPECT_EQ(truth("D == 0 || 64 % D == 0", {{"D", 0}}), "true");
}

TEST(SpecExpressionTest, NamesAreSortedAndUnique) {
  llvm::Expected<SpecExpression> E = SpecExpression::parse("N % H == 0 && D >= H");
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(E->names(), (std::vector<std::string>{"D", "H", "N"}));
}

TEST(SpecExpressionTest, EvaluationErrorsNameTheirCause) {
  EXPECT_EQ(truth("D % 8 == 0", {}), "eval: dim 'D' has no value");
  EXPECT_EQ(truth("8 % D == 0", {{"D", 0}}), "eval: division by zero");
  EXPECT_EQ(truth("D * D > 0", {{"D", int64_t(1) << 40}}), "eval: '*' overflows 64 bits");
  EXPECT_EQ(truth("D / -1 > 0", {{"D", INT64_MIN}}), "eval: '/' overflows 64 bits");
  EXPECT_EQ(truth("-D > 0", {{"D", INT64_MIN}}), "eval: '-' overflows 64 bits");
}

TEST(SpecExpressionTest, SyntaxErrorsGiveTheColumn) {
  EXPECT_EQ(parseError("D % 8"),
            "a constraint must be a comparison (such as `D % 8 == 0`), not a number");
  EXPECT_EQ(parseError("D %% 8 == 0"), "column 4: expected a number, a dim name or '(', not '%'");
  EXPECT_EQ(parseError("D % == 0"), "column 5: expected a number, a dim name or '(', not '='");
  EXPECT_EQ(parseError("(D == 0"), "column 8: expected ')'");
  EXPECT_EQ(parseError("D == 0)"), "column 7: unexpected ')'");
  EXPECT_EQ(parseError("D =="), "column 5: expected a number, a dim name or '(' at the end");
  EXPECT_EQ(parseError("0 < D < 8"), "column 8: comparisons do not chain; join them with &&");
  EXPECT_EQ(parseError("D == 8x"), "column 6: '8x' is not a decimal integer of 64 bits");
  EXPECT_EQ(parseError("D == 99999999999999999999"),
            "column 6: '99999999999999999999' is not a decimal integer of 64 bits");
  EXPECT_EQ(parseError("D == 'a'"), "column 6: expected a number, a dim name or '(', not '''");
  EXPECT_EQ(parseError("__import__('os') == 0"), "column 11: unexpected '('");
}

TEST(SpecExpressionTest, OperandsMustBeOfTheirKind) {
  EXPECT_EQ(parseError("D && H == 1"), "column 1: '&&' takes comparisons, not a number");
  EXPECT_EQ(parseError("H == 1 || D"), "column 11: '||' takes comparisons, not a number");
  EXPECT_EQ(parseError("(D == 1) + 1 == 2"), "column 1: '+' takes numbers, not a comparison");
  EXPECT_EQ(parseError("(D == 1) == (H == 1)"), "column 1: '==' takes numbers, not a comparison");
  EXPECT_EQ(parseError("-(D == 1) == 0"), "column 2: '-' takes numbers, not a comparison");
}

TEST(SpecExpressionTest, LengthAndDepthAreBounded) {
  EXPECT_EQ(parseError(std::string(1001, ' ')), "longer than 1000 characters");
  std::string Deep = std::string(40, '(') + "D" + std::string(40, ')') + " == 1";
  EXPECT_EQ(parseError(Deep), "column 33: nested deeper than 32 levels");
  EXPECT_EQ(parseError(std::string(40, '-') + "D == 1"), "column 33: nested deeper than 32 levels");
}

/// `Text` parsed and printed in `Lang`, each dim spelled by `Spell`.
std::string printed(llvm::StringRef Text, SpecExpression::Syntax Lang = SpecExpression::Syntax::Cpp,
                    const std::function<std::string(llvm::StringRef)> &Spell = {}) {
  llvm::Expected<SpecExpression> E = SpecExpression::parse(Text);
  if (!E)
    return "parse: " + llvm::toString(E.takeError());
  return E->print(Lang, Spell);
}

TEST(SpecExpressionTest, PrintsWithTheParenthesesPrecedenceNeeds) {
  EXPECT_EQ(printed("D%8==0"), "D % 8 == 0");
  EXPECT_EQ(printed("((D % 8)) == (0)"), "D % 8 == 0");
  EXPECT_EQ(printed("B * (H + 1) == 8"), "B * (H + 1) == 8");
  EXPECT_EQ(printed("(B * H) + 1 == 7"), "B * H + 1 == 7");
  EXPECT_EQ(printed("10 - (4 - 3) == 9"), "10 - (4 - 3) == 9");
  EXPECT_EQ(printed("(10 - 4) - 3 == 3"), "10 - 4 - 3 == 3");
  EXPECT_EQ(printed("D / (H / 2) == 1"), "D / (H / 2) == 1");
  EXPECT_EQ(printed("-(-D) < 0"), "-(-D) < 0");
  EXPECT_EQ(printed("-(D + 1) < 0"), "-(D + 1) < 0");
  EXPECT_EQ(printed("(H > 1 || H < 0) && H != 5"), "(H > 1 || H < 0) && H != 5");
  EXPECT_EQ(printed("H > 1 || (H < 0 && H != 5)"), "H > 1 || H < 0 && H != 5");
}

TEST(SpecExpressionTest, PrintsPythonAndSpellsTheDims) {
  auto Size = [](llvm::StringRef Name) {
    return "x.size(" + std::string(Name == "D" ? "1" : "0") + ")";
  };
  EXPECT_EQ(printed("D % 8 == 0", SpecExpression::Syntax::Python, Size), "x.size(1) % 8 == 0");
  EXPECT_EQ(printed("D / 2 >= B && (B > 1 || D < 0)", SpecExpression::Syntax::Python, Size),
            "x.size(1) // 2 >= x.size(0) and (x.size(0) > 1 or x.size(1) < 0)");
  EXPECT_EQ(printed("D / 2 >= B", SpecExpression::Syntax::Cpp, Size), "x.size(1) / 2 >= x.size(0)");
}

TEST(SpecExpressionTest, WhatItPrintsMeansTheSame) {
  const char *Texts[] = {"B * (H + 1) == 8",
                         "10 - (4 - 3) == B",
                         "-(-D) < H % 3",
                         "(H > 1 || H < 0) && H != 5",
                         "H > 1 || (H < 0 && H != 5)",
                         "D / (H / 2) == 1 || D - B - H > 0"};
  for (const char *Text : Texts)
    for (int64_t D : {0, 1, 7, 64})
      for (int64_t H : {2, 5, 9}) {
        std::map<std::string, int64_t> Dims{{"B", 3}, {"D", D}, {"H", H}};
        EXPECT_EQ(truth(printed(Text), Dims), truth(Text, Dims)) << Text;
      }
}

} // namespace
} // namespace opmig
