//===- FakeChecksTest.cpp - The shape checks of generated fakes -----------===//
//
// A table of entry bodies (host C++ against the stand-in torch headers) and
// the conditions their fakes check (migrators/lib/FakeChecks.h), one line
// each as Python writes them (C++ takes `x.sym_size(1)` for `x.size(1)`):
//
//   x.dim() == 2
//   w.size(0) == x.size(1)
//   x.size(1) % 8 == 0
//
// Rows come in pairs where it matters: a check that the fake makes, and a
// near one that it must not (inside a branch, against a variable): a fake
// that rejected what the kernel accepts would break a working call.
//
//===----------------------------------------------------------------------===//

#include "EntrySignature.h"

#include <gtest/gtest.h>

namespace opmig::migrate {
namespace {

struct ChecksCase {
  const char *Name;
  const char *Params; ///< Of `f`; its result is `at::empty_like(x)`.
  const char *Body;
  const char *Expect; ///< One condition a line.
};

std::ostream &operator<<(std::ostream &OS, const ChecksCase &C) { return OS << C.Name; }

/// What C++ writes where Python writes `Python`, by the two spellings that
/// differ: sizes are SymInts (`x.sym_size(1)`) and `//` is `/`.
std::string asCpp(std::string Python) {
  for (auto [From, To] : {std::pair{".size(", ".sym_size("}, std::pair{" // ", " / "}})
    for (size_t At = Python.find(From); At != std::string::npos;
         At = Python.find(From, At + std::string(To).size()))
      Python.replace(At, std::string(From).size(), To);
  return Python;
}

/// The Python conditions, one a line; ` // C++: <cpp>` where C++ spells
/// one other than asCpp() says.
std::string conditions(const std::vector<FakeCheck> &Checks) {
  std::string Out;
  for (const FakeCheck &Check : Checks) {
    Out += Check.PythonCondition;
    if (Check.CppCondition != asCpp(Check.PythonCondition))
      Out += " // C++: " + Check.CppCondition;
    Out += "\n";
  }
  return Out;
}

class FakeChecksTest : public test::EntrySignatureTest,
                       public ::testing::WithParamInterface<ChecksCase> {
protected:
  std::vector<FakeCheck> checks(const std::string &Params, const std::string &Body) {
    return derive("#include <torch/all.h>\n#include <stdexcept>\nat::Tensor f(" + Params + ") {\n" +
                  Body + "  return at::empty_like(x);\n}\n")
        .FakeChecks;
  }
};

TEST_P(FakeChecksTest, Derives) {
  const ChecksCase &C = GetParam();
  EXPECT_EQ(conditions(checks(C.Params, C.Body)), C.Expect) << C.Body;
}

const char *const XW = "const at::Tensor &x, const at::Tensor &w";

const ChecksCase Cases[] = {
    {"Rank", "const at::Tensor &x", "  TORCH_CHECK(x.dim() == 2);\n", "x.dim() == 2\n"},
    {"RankInABranchIsNotChecked", "const at::Tensor &x, bool flat",
     "  if (flat) {\n    TORCH_CHECK(x.dim() == 2);\n  }\n", ""},
    {"RankAtLeast", "const at::Tensor &x", "  TORCH_CHECK(x.dim() >= 2);\n", "x.dim() >= 2\n"},
    {"LastDimOfAnyRankCountsFromTheEnd", XW,
     "  TORCH_CHECK(x.dim() >= 1);\n  const int64_t hidden = x.size(x.dim() - 1);\n"
     "  TORCH_CHECK(w.dim() == 1 && w.size(0) == hidden);\n  TORCH_CHECK(hidden % 8 == 0);\n",
     "x.dim() >= 1\nw.dim() == 1\nw.size(0) == x.size(-1)\nx.size(-1) % 8 == 0\n"},
    {"TrailingDimsBehindLeadingOnes", XW,
     "  TORCH_CHECK(x.size(-2) == w.size(-1));\n  TORCH_CHECK(x.size(-1) == 4);\n",
     "x.dim() >= 2\nw.dim() >= 1\nx.size(-1) == 4\nw.size(-1) == x.size(-2)\n"},
    {"RanksComeFirst", XW,
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(1) == w.size(0));\n"
     "  TORCH_CHECK(w.dim() == 1);\n",
     "x.dim() == 2\nw.dim() == 1\nw.size(0) == x.size(1)\n"},
    {"SharedDimThroughNegativeIndex", XW,
     "  TORCH_CHECK(x.dim() == 3 && w.dim() == 2);\n"
     "  TORCH_CHECK(w.size(-1) == x.size(-1));\n",
     "x.dim() == 3\nw.dim() == 2\nw.size(1) == x.size(2)\n"},
    {"SharedDimInABranchIsNotChecked", XW,
     "  TORCH_CHECK(x.dim() == 1 && w.dim() == 1);\n"
     "  if (x.numel() > 0) {\n    TORCH_CHECK(x.size(0) == w.size(0));\n  }\n",
     "x.dim() == 1\nw.dim() == 1\n"},
    {"LiteralSize", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(1) == 3);\n",
     "x.dim() == 2\nx.size(1) == 3\n"},
    {"SizeAgainstAParameterIsNotChecked", "const at::Tensor &x, int64_t n",
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.size(0) == n);\n", "x.dim() == 1\n"},
    {"Constraint", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(-1) % 8 == 0, \"align\");\n",
     "x.dim() == 2\nx.size(1) % 8 == 0\n"},
    {"ConstraintOfATensorOfUnknownRankIsNotChecked", "const at::Tensor &x",
     "  TORCH_CHECK(x.size(0) % 8 == 0);\n", ""},
    {"ConstraintAgainstAVariableIsNotChecked", "const at::Tensor &x, int64_t align",
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.size(0) % align == 0);\n", "x.dim() == 1\n"},
    {"ConstraintInABranchIsNotChecked", "const at::Tensor &x, bool aligned",
     "  TORCH_CHECK(x.dim() == 1);\n  if (aligned)\n    TORCH_CHECK(x.size(0) % 8 == 0);\n",
     "x.dim() == 1\n"},
    {"DivisionIsFloorDivisionInPython", XW,
     "  TORCH_CHECK(x.dim() == 1 && w.dim() == 1);\n"
     "  TORCH_CHECK(x.size(0) / 2 == w.size(0) * 4);\n",
     "x.dim() == 1\nw.dim() == 1\nx.size(0) // 2 == w.size(0) * 4\n"},
    {"ConstLocalAlias", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n"
     "  const int64_t hidden = x.size(1);\n"
     "  TORCH_CHECK(w.size(0) == hidden);\n"
     "  TORCH_CHECK(hidden % 16 == 0 && hidden <= 256);\n",
     "x.dim() == 2\nw.dim() == 1\nw.size(0) == x.size(1)\nx.size(1) % 16 == 0\n"
     "x.size(1) <= 256\n"},
    {"NonConstLocalIsNotChecked", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n  int64_t n = x.size(0);\n"
     "  TORCH_CHECK(w.size(0) == n);\n",
     "x.dim() == 2\nw.dim() == 1\n"},
    {"ThrowingIfIsNegated", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 1);\n  if (x.size(0) > 1024) throw std::runtime_error(\"big\");\n",
     "x.dim() == 1\nx.size(0) <= 1024\n"},
    {"OptionalTensorIsNotChecked", "const at::Tensor &x, const std::optional<at::Tensor> &b",
     "  TORCH_CHECK(x.dim() == 1);\n", "x.dim() == 1\n"},
    {"DtypesAndDevicesAreNotTheFakesToCheck", "const at::Tensor &x",
     "  TORCH_CHECK(x.is_cuda() && x.is_contiguous());\n"
     "  TORCH_CHECK(x.scalar_type() == at::kHalf);\n",
     ""},
};

INSTANTIATE_TEST_SUITE_P(Table, FakeChecksTest, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return std::string(Info.param.Name); });

class FakeChecksMessageTest : public FakeChecksTest {};

// Each message names the op, what must hold and the values the call had;
// rank and constraint messages name the upstream check too.
TEST_F(FakeChecksMessageTest, NameTheOpTheValuesAndTheUpstreamCheck) {
  std::vector<FakeCheck> Checks =
      checks(XW, "  TORCH_CHECK(x.dim() == 2 && w.dim() == 2);\n"
                 "  const int64_t hidden = x.size(1);\n"
                 "  TORCH_CHECK(w.size(0) == hidden && w.size(1) == 4);\n"
                 "  TORCH_CHECK(hidden % 8 == 0);\n");
  ASSERT_EQ(Checks.size(), 5u) << conditions(Checks);
  EXPECT_EQ(Checks[0].PythonMessage,
            "f\"f: x must have 2 dims, got {x.dim()} (checked at upstream ops.cpp:4:3)\"");
  EXPECT_EQ(Checks[0].CppMessage,
            "\"f: x must have 2 dims, got \", x.dim(), \" (checked at upstream ops.cpp:4:3)\"");
  EXPECT_EQ(Checks[2].PythonMessage,
            "f\"f: w.size(0) must equal x.size(1) (dim hidden), got {w.size(0)} and "
            "{x.size(1)}\"");
  EXPECT_EQ(Checks[2].CppCondition, "w.sym_size(0) == x.sym_size(1)");
  EXPECT_EQ(Checks[2].CppMessage, "\"f: w.size(0) must equal x.size(1) (dim hidden), got \", "
                                  "w.sym_size(0), \" and \", x.sym_size(1)");
  EXPECT_EQ(Checks[3].PythonMessage, "f\"f: w.size(1) must be 4, got {w.size(1)}\"");
  EXPECT_EQ(Checks[4].PythonCondition, "x.size(1) % 8 == 0");
  EXPECT_EQ(Checks[4].PythonMessage, "f\"f: hidden % 8 == 0 must hold, got hidden = {x.size(1)} "
                                     "(checked at upstream ops.cpp:7:3)\"");
  EXPECT_EQ(Checks[4].CppCondition, "x.sym_size(1) % 8 == 0");
  EXPECT_EQ(Checks[4].CppMessage, "\"f: hidden % 8 == 0 must hold, got hidden = \", "
                                  "x.sym_size(1), \" (checked at upstream ops.cpp:7:3)\"");
}

// A constraint over several dims shows each, in the order of their names.
TEST_F(FakeChecksMessageTest, ShowEveryDimOfAConstraint) {
  std::vector<FakeCheck> Checks = checks(XW, "  TORCH_CHECK(x.dim() == 1 && w.dim() == 1);\n"
                                             "  TORCH_CHECK(x.size(0) >= w.size(0) * 2);\n");
  ASSERT_EQ(Checks.size(), 3u) << conditions(Checks);
  EXPECT_EQ(Checks[2].CppCondition, "x.sym_size(0) >= w.sym_size(0) * 2");
  EXPECT_EQ(Checks[2].PythonMessage, "f\"f: x_0 >= w_0 * 2 must hold, got w_0 = {w.size(0)}, "
                                     "x_0 = {x.size(0)} (checked at upstream ops.cpp:5:3)\"");
}

} // namespace
} // namespace opmig::migrate
