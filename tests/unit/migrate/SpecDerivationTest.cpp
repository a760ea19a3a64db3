//===- SpecDerivationTest.cpp - The spec migrate derives from an entry ----===//
//
// A table of entry bodies (host C++ against the stand-in torch headers) and
// the validation spec each derives (migrators/lib/SpecDerivation.h), one
// line per input and per constraint, `?` for a TODO:
//
//   x: shape [x_0, x_1], dtypes [float16], contiguous, cuda
//   w: shape [x_1], dtypes same as x
//   constraint: x_1 % 8 == 0
//
// Rows come in pairs where it matters: a shape that derives, and a near one
// that must not (a check inside a branch, a comparison with a variable).
//
//===----------------------------------------------------------------------===//

#include "EntrySignature.h"
#include "nlohmann/json.hpp"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace opmig::migrate {
namespace {

struct DerivationCase {
  const char *Name;
  /// The body of `f`, whose parameters are `Params`.
  const char *Params;
  const char *Body;
  /// The derived spec, one line per tensor input then per constraint.
  const char *Expect;
};

std::ostream &operator<<(std::ostream &OS, const DerivationCase &C) { return OS << C.Name; }

std::string describe(const SpecInput &In) {
  std::vector<std::string> Parts;
  Parts.push_back("shape " + (In.Shape.known() ? "[" + llvm::join(In.Shape.Value, ", ") + "]"
                                               : std::string("?")));
  if (!In.Dtypes.known())
    Parts.push_back("dtypes ?");
  else if (!In.Dtypes.Value.SameAs.empty())
    Parts.push_back("dtypes same as " + In.Dtypes.Value.SameAs);
  else
    Parts.push_back("dtypes [" + llvm::join(In.Dtypes.Value.Names, ", ") + "]");
  if (In.Contiguous.known())
    Parts.push_back("contiguous");
  if (In.Device.known())
    Parts.push_back(In.Device.Value);
  return In.Name + ": " + llvm::join(Parts, ", ");
}

/// The lines the table compares.
std::string describe(const SpecOp &Op) {
  std::string Out;
  for (const SpecInput &In : Op.Inputs)
    if (In.IsTensor)
      Out += describe(In) + "\n";
  for (const Sourced<std::string> &C : Op.Constraints)
    Out += "constraint: " + C.Value + "\n";
  return Out;
}

class SpecDerivationTest : public test::EntrySignatureTest,
                           public ::testing::WithParamInterface<DerivationCase> {
protected:
  static std::string source(const DerivationCase &C) {
    return std::string("#include <torch/all.h>\n#include <stdexcept>\n") + "at::Tensor f(" +
           C.Params + ") {\n" + C.Body + "  return at::empty_like(x);\n}\n";
  }
};

TEST_P(SpecDerivationTest, Derives) {
  const DerivationCase &C = GetParam();
  EXPECT_EQ(describe(derive(source(C)).Validation), C.Expect) << source(C);
}

const char *const XW = "const at::Tensor &x, const at::Tensor &w";

const DerivationCase Cases[] = {
    // Ranks.
    {"DimEquals", "const at::Tensor &x", "  TORCH_CHECK(x.dim() == 2);\n",
     "x: shape [x_0, x_1], dtypes ?\n"},
    {"DimOnTheRight", "const at::Tensor &x", "  TORCH_CHECK(3 == x.dim(), \"rank\");\n",
     "x: shape [x_0, x_1, x_2], dtypes ?\n"},
    {"Ndimension", "const at::Tensor &x", "  TORCH_CHECK(x.ndimension() == 1);\n",
     "x: shape [x_0], dtypes ?\n"},
    {"SizesSize", "const at::Tensor &x", "  TORCH_CHECK(x.sizes().size() == 3);\n",
     "x: shape [x_0, x_1, x_2], dtypes ?\n"},
    {"DimNotEqualThrows", "const at::Tensor &x",
     "  if (x.dim() != 2)\n    throw std::invalid_argument(\"x must be 2-D\");\n",
     "x: shape [x_0, x_1], dtypes ?\n"},
    {"DimAtLeastGivesLeadingDims", "const at::Tensor &x", "  TORCH_CHECK(x.dim() >= 2);\n",
     "x: shape [..., x_last2, x_last], dtypes ?\n"},
    {"DimGreaterThanOnTheRight", "const at::Tensor &x", "  TORCH_CHECK(0 < x.dim());\n",
     "x: shape [..., x_last], dtypes ?\n"},
    {"DimAtLeastYieldsToAnExactRank", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() >= 1);\n  TORCH_CHECK(x.dim() == 2);\n",
     "x: shape [x_0, x_1], dtypes ?\n"},
    {"DimAtMostIsNoRank", "const at::Tensor &x", "  TORCH_CHECK(x.dim() <= 2);\n",
     "x: shape ?, dtypes ?\n"},
    {"DimInABranchIsNotDerived", "const at::Tensor &x, bool flat",
     "  if (flat) {\n    TORCH_CHECK(x.dim() == 2);\n  }\n", "x: shape ?, dtypes ?\n"},
    {"DimInALoopIsNotDerived", "const at::Tensor &x",
     "  for (int i = 0; i < 1; ++i)\n    TORCH_CHECK(x.dim() == 2);\n", "x: shape ?, dtypes ?\n"},
    {"DimAgainstAVariableIsNotDerived", "const at::Tensor &x, int64_t rank",
     "  TORCH_CHECK(x.dim() == rank);\n", "x: shape ?, dtypes ?\n"},
    {"ACheckWithAnElseIsNotACheck", "const at::Tensor &x",
     "  if (!(x.dim() == 2)) throw 1; else (void)0;\n", "x: shape ?, dtypes ?\n"},
    {"InsideAnImmediatelyCalledLambda", "const at::Tensor &x",
     "  [&] { TORCH_CHECK(x.dim() == 4); }();\n", "x: shape [x_0, x_1, x_2, x_3], dtypes ?\n"},
    {"InsideALambdaNotCalledIsNotDerived", "const at::Tensor &x",
     "  auto check = [&] { TORCH_CHECK(x.dim() == 4); };\n  (void)check;\n",
     "x: shape ?, dtypes ?\n"},
    // Shape relations.
    {"SizeEqualsSize", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n  TORCH_CHECK(w.size(0) == x.size(1));\n",
     "x: shape [x_0, x_1], dtypes ?\nw: shape [x_1], dtypes ?\n"},
    {"NegativeIndexCountsFromTheEnd", XW,
     "  TORCH_CHECK(x.dim() == 3);\n  TORCH_CHECK(w.dim() == 1);\n"
     "  TORCH_CHECK(x.size(-1) == w.size(0));\n",
     "x: shape [x_0, x_1, x_2], dtypes ?\nw: shape [x_2], dtypes ?\n"},
    {"SizesSubscript", XW,
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(w.dim() == 1);\n"
     "  TORCH_CHECK(x.sizes()[0] == w.sizes()[0]);\n",
     "x: shape [x_0, x_1], dtypes ?\nw: shape [x_0], dtypes ?\n"},
    {"ConstLocalNamesTheDim", XW,
     "  TORCH_CHECK(x.dim() == 2);\n  const int64_t tokens = x.size(0);\n"
     "  TORCH_CHECK(w.dim() == 1 && w.size(0) == tokens);\n",
     "x: shape [tokens, x_1], dtypes ?\nw: shape [tokens], dtypes ?\n"},
    {"NonConstLocalIsAVariable", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n  int64_t n = x.size(0);\n"
     "  TORCH_CHECK(w.size(0) == n);\n",
     "x: shape [x_0, x_1], dtypes ?\nw: shape [w_0], dtypes ?\n"},
    {"SizeAgainstAParameterIsNotDerived", "const at::Tensor &x, int64_t n",
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.size(0) == n);\n",
     "x: shape [x_0], dtypes ?\n"},
    {"SizeAgainstALiteralFixesIt", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(1) == 3);\n",
     "x: shape [x_0, 3], dtypes ?\n"},
    {"SizeRelationInABranchIsNotDerived", XW,
     "  TORCH_CHECK(x.dim() == 1 && w.dim() == 1);\n"
     "  if (x.numel() > 0) {\n    TORCH_CHECK(x.size(0) == w.size(0));\n  }\n",
     "x: shape [x_0], dtypes ?\nw: shape [w_0], dtypes ?\n"},
    // Shapes compared with a list (CHECK_SHAPE), with the rank and names.
    {"SizesEqualIntArrayRefGivesRankAndNames", XW,
     "#define CHECK_SHAPE(x, ...) TORCH_CHECK(x.sizes() == at::IntArrayRef({__VA_ARGS__}))\n"
     "  const auto sizes = x.sizes();\n  const int batch = sizes[0];\n"
     "  const int dim = sizes[1];\n  const int width = w.size(-1);\n"
     "  CHECK_SHAPE(x, batch, dim, 16);\n  CHECK_SHAPE(w, dim, width);\n",
     "x: shape [batch, dim, 16], dtypes ?\nw: shape [dim, width], dtypes ?\n"},
    {"SizesEqualAListOfOtherCountsNamesTheDims", "const at::Tensor &x, int64_t heads",
     "  int64_t tokens = heads * 2;\n  TORCH_CHECK(x.sizes() == at::IntArrayRef({tokens, 8}));\n",
     "x: shape [tokens, 8], dtypes ?\n"},
    {"SizesEqualAListInABranchIsNotDerived", "const at::Tensor &x, bool flat",
     "  if (flat) {\n    TORCH_CHECK(x.sizes() == at::IntArrayRef({2, 3}));\n  }\n",
     "x: shape ?, dtypes ?\n"},
    // Whole shapes compared: one tensor's shape is the other's.
    {"SizesEqualSizesSharesTheRank", XW,
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(w.sizes() == x.sizes());\n",
     "x: shape [x_0, x_1], dtypes ?\nw: shape [x_0, x_1], dtypes ?\n"},
    {"SizesEqualSizesWithoutARankIsAnyShapeTheSame", XW, "  TORCH_CHECK(x.sizes() == w.sizes());\n",
     "x: shape [...], dtypes ?\nw: shape [...], dtypes ?\n"},
    {"SizesEqualSizesSharesTheTrailingDims", XW,
     "  TORCH_CHECK(x.size(-1) % 8 == 0);\n  TORCH_CHECK(x.sizes() == w.sizes());\n",
     "x: shape [..., x_last], dtypes ?\nw: shape [..., x_last], dtypes ?\n"
     "constraint: x_last % 8 == 0\n"},
    {"IsSameSizeTakesTheOthersRank", XW,
     "  TORCH_CHECK(w.dim() == 3);\n  TORCH_CHECK(x.is_same_size(w), \"shape\");\n",
     "x: shape [x_0, x_1, x_2], dtypes ?\nw: shape [x_0, x_1, x_2], dtypes ?\n"},
    {"SizesEquals", XW,
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.sizes().equals(w.sizes()));\n",
     "x: shape [x_0], dtypes ?\nw: shape [x_0], dtypes ?\n"},
    {"SizesDifferIsNotDerived", XW, "  TORCH_CHECK(x.sizes() != w.sizes());\n",
     "x: shape ?, dtypes ?\nw: shape ?, dtypes ?\n"},
    {"SizesEqualSizesInABranchIsNotDerived", "const at::Tensor &x, const at::Tensor &w, bool b",
     "  if (b) {\n    TORCH_CHECK(x.sizes() == w.sizes());\n  }\n",
     "x: shape ?, dtypes ?\nw: shape ?, dtypes ?\n"},
    // Constraints.
    {"Alignment", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(-1) % 8 == 0, \"align\");\n",
     "x: shape [x_0, x_1], dtypes ?\nconstraint: x_1 % 8 == 0\n"},
    {"AlignmentOnANamedDim", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  const int64_t head_size = x.size(1);\n"
     "  TORCH_CHECK(head_size % 16 == 0 && head_size <= 256);\n",
     "x: shape [x_0, head_size], dtypes ?\nconstraint: head_size % 16 == 0\n"
     "constraint: head_size <= 256\n"},
    {"ArithmeticOverDims", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n"
     "  TORCH_CHECK(x.size(0) * x.size(1) == w.size(0) * 2);\n",
     "x: shape [x_0, x_1], dtypes ?\nw: shape [w_0], dtypes ?\n"
     "constraint: x_0 * x_1 == w_0 * 2\n"},
    {"ThrowingIfGivesTheNegation", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 1);\n  if (x.size(0) > 1024) throw std::runtime_error(\"big\");\n",
     "x: shape [x_0], dtypes ?\nconstraint: x_0 <= 1024\n"},
    {"AlignmentAgainstAVariableIsNotDerived", "const at::Tensor &x, int64_t align",
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.size(0) % align == 0);\n",
     "x: shape [x_0], dtypes ?\n"},
    {"NegativeIndexOfUnknownRankGivesLeadingDims", "const at::Tensor &x",
     "  TORCH_CHECK(x.size(-1) % 8 == 0);\n",
     "x: shape [..., x_last], dtypes ?\nconstraint: x_last % 8 == 0\n"},
    {"LastDimOfAnyRankThroughALocal", XW,
     "  TORCH_CHECK(x.dim() >= 1);\n  const int64_t hidden = x.size(x.dim() - 1);\n"
     "  TORCH_CHECK(w.dim() == 1 && w.size(0) == hidden);\n",
     "x: shape [..., hidden], dtypes ?\nw: shape [hidden], dtypes ?\n"},
    {"TrailingDimsOfTwoTensorsOfAnyRank", XW,
     "  TORCH_CHECK(x.size(-2) == w.size(-2));\n  TORCH_CHECK(x.size(-1) == 64);\n",
     "x: shape [..., x_last2, 64], dtypes ?\nw: shape [..., x_last2, w_last], dtypes ?\n"},
    {"FrontAndBackOfUnknownRankGiveNoShape", XW,
     "  TORCH_CHECK(w.dim() == 1);\n  TORCH_CHECK(x.size(0) == w.size(0));\n"
     "  TORCH_CHECK(x.size(-1) % 8 == 0);\n",
     "x: shape ?, dtypes ?\nw: shape [x_0], dtypes ?\nconstraint: x_last % 8 == 0\n"},
    {"ALocalAloneIsNoCheck", "const at::Tensor &x",
     "  const int64_t hidden = x.size(-1);\n  (void)hidden;\n", "x: shape ?, dtypes ?\n"},
    // Dtypes.
    {"DispatchFloatingTypesAnd2", "const at::Tensor &x",
     "  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), \"f\", [&] "
     "{});\n",
     "x: shape ?, dtypes [float64, float32, float16, bfloat16]\n"},
    {"DispatchFloatingTypes", "const at::Tensor &x",
     "  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), \"f\", [&] {});\n",
     "x: shape ?, dtypes [float64, float32]\n"},
    {"DispatchSwitchOfCases", "const at::Tensor &x",
     "  AT_DISPATCH_SWITCH(x.scalar_type(), \"f\",\n"
     "      AT_DISPATCH_CASE(at::ScalarType::Half, [&] {})\n"
     "      AT_DISPATCH_CASE(at::kBFloat16, [&] {}));\n",
     "x: shape ?, dtypes [float16, bfloat16]\n"},
    {"CustomDispatchMacro", "const at::Tensor &x",
     "#define MY_DISPATCH(T, ...) [&] { switch (T) { \\\n"
     "  case at::ScalarType::Float: { using scalar_t = float; __VA_ARGS__(); break; } \\\n"
     "  case at::ScalarType::Half: { using scalar_t = at::Half; __VA_ARGS__(); break; } \\\n"
     "  default: TORCH_CHECK(false, \"dtype\"); } }()\n"
     "  MY_DISPATCH(x.scalar_type(), [&] {});\n",
     "x: shape ?, dtypes [float32, float16]\n"},
    {"DispatchInABranchIsNotDerived", "const at::Tensor &x, bool fast",
     "  if (fast) {\n    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), \"f\", [&] {});\n  }\n",
     "x: shape ?, dtypes ?\n"},
    {"DtypeAlternatives", "const at::Tensor &x",
     "  TORCH_CHECK(x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16);\n",
     "x: shape ?, dtypes [float16, bfloat16]\n"},
    {"DtypeOfTorch", "const at::Tensor &x",
     "  TORCH_CHECK(x.dtype() == torch::kFloat32, \"float32 only\");\n",
     "x: shape ?, dtypes [float32]\n"},
    {"CheckNarrowsTheDispatch", "const at::Tensor &x",
     "  TORCH_CHECK(x.scalar_type() != at::kDouble);\n"
     "  TORCH_CHECK(x.scalar_type() == at::kHalf || at::kFloat == x.scalar_type());\n"
     "  AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), \"f\", [&] {});\n",
     "x: shape ?, dtypes [float32, float16]\n"},
    {"SameDtype", XW,
     "  TORCH_CHECK(x.scalar_type() == at::kHalf);\n"
     "  TORCH_CHECK(w.scalar_type() == x.scalar_type());\n",
     "x: shape ?, dtypes [float16]\nw: shape ?, dtypes same as x\n"},
    {"DtypeAgainstAVariableIsNotDerived", "const at::Tensor &x, at::ScalarType want",
     "  TORCH_CHECK(x.scalar_type() == want);\n", "x: shape ?, dtypes ?\n"},
    {"MixedAlternativesAreNotDerived", XW,
     "  TORCH_CHECK(x.scalar_type() == at::kHalf || w.scalar_type() == at::kHalf);\n",
     "x: shape ?, dtypes ?\nw: shape ?, dtypes ?\n"},
    // Layout and device.
    {"ContiguousAndCuda", "const at::Tensor &x",
     "  TORCH_CHECK(x.is_cuda(), \"cuda\");\n  TORCH_CHECK(x.is_contiguous());\n",
     "x: shape ?, dtypes ?, contiguous, cuda\n"},
    {"DeviceIsCuda", "const at::Tensor &x", "  TORCH_CHECK(x.device().is_cuda());\n",
     "x: shape ?, dtypes ?, cuda\n"},
    {"DeviceTypeIsCuda", "const at::Tensor &x",
     "  TORCH_CHECK(x.device().type() == at::DeviceType::CUDA);\n", "x: shape ?, dtypes ?, cuda\n"},
    {"KCudaIsTheDeviceType", "const at::Tensor &x",
     "  TORCH_CHECK(at::kCUDA == x.device().type());\n", "x: shape ?, dtypes ?, cuda\n"},
    {"DeviceTypeCpuIsNotCuda", "const at::Tensor &x",
     "  TORCH_CHECK(x.device().type() == at::DeviceType::CPU);\n", "x: shape ?, dtypes ?\n"},
    {"MacroOfChecks", "const at::Tensor &x",
     "#define CHECK_INPUT(t) TORCH_CHECK((t).is_cuda()); TORCH_CHECK((t).is_contiguous())\n"
     "  CHECK_INPUT(x);\n",
     "x: shape ?, dtypes ?, contiguous, cuda\n"},
    {"NotContiguousIsNotDerived", "const at::Tensor &x", "  TORCH_CHECK(!x.is_contiguous());\n",
     "x: shape ?, dtypes ?\n"},
    // A parameter the body rebinds (fast-hadamard-transform's `x =
    // x.reshape(...)`): the checks before describe the input, those after
    // the new handle.
    {"ChecksBeforeARebindingDescribeTheInput", "at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 3);\n  x = x.reshape({-1, x.size(-1)});\n"
     "  TORCH_CHECK(x.dim() == 2);\n",
     "x: shape [x_0, x_1, x_2], dtypes ?\n"},
    {"ChecksAfterARebindingTellNothing", "at::Tensor &x",
     "  if (!x.is_contiguous()) { x = x.contiguous(); }\n  TORCH_CHECK(x.is_contiguous());\n"
     "  TORCH_CHECK(x.size(1) == 8);\n",
     "x: shape ?, dtypes ?\n"},
    {"AConversionBeforeADtypeCheckTellsNoDtype", "at::Tensor &x",
     "  x = x.to(at::kFloat);\n  TORCH_CHECK(x.scalar_type() == at::kFloat);\n",
     "x: shape ?, dtypes ?\n"},
    {"AHelperCalledAfterARebindingTellsNothing", "at::Tensor &x",
     "  auto check = [](const at::Tensor &t) { TORCH_CHECK(t.dim() == 2); };\n"
     "  check(x);\n  x = x.view({-1});\n  check(x);\n",
     "x: shape [x_0, x_1], dtypes ?\n"},
};

INSTANTIATE_TEST_SUITE_P(Table, SpecDerivationTest, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return std::string(Info.param.Name); });

class SpecDerivationDetailTest : public SpecDerivationTest {};

// `at` is where the check is written: the macro's use, in the upstream file,
// relative to the upstream root.
TEST_F(SpecDerivationDetailTest, ValuesRecordTheMacroUseTheyCameFrom) {
  SpecOp Op = derive("#include <torch/all.h>\n"
                     "#define CHECK_RANK(t, n) TORCH_CHECK((t).dim() == (n))\n"
                     "at::Tensor f(const at::Tensor &x) {\n"
                     "  CHECK_RANK(x, 2);\n"
                     "    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), \"f\", [&] {});\n"
                     "  TORCH_CHECK(x.size(1) % 4 == 0);\n"
                     "  return at::empty_like(x);\n"
                     "}\n")
                  .Validation;
  ASSERT_EQ(Op.Inputs.size(), 1u);
  EXPECT_EQ(Op.Inputs[0].Shape.At, "ops.cpp:4:3");
  EXPECT_EQ(Op.Inputs[0].Dtypes.At, "ops.cpp:5:5");
  ASSERT_EQ(Op.Constraints.size(), 1u);
  EXPECT_EQ(Op.Constraints[0].At, "ops.cpp:6:3");
  EXPECT_EQ(Op.Constraints[0].Source, ValueSource::Code);
}

// The checks of the tree's own helpers are the entry's, with the `at` of the
// check as written in the helper; each parameter is the argument it is bound
// to, whatever its name or position.
TEST_F(SpecDerivationDetailTest, ChecksInAHelperOfTheSameFile) {
  SpecOp Op = derive("#include <torch/all.h>\n"
                     "static void check_inputs(const at::Tensor &a, const at::Tensor &b) {\n"
                     "  TORCH_CHECK(a.dim() == 2);\n"
                     "  TORCH_CHECK(a.is_cuda() && a.is_contiguous());\n"
                     "  TORCH_CHECK(b.sizes() == a.sizes());\n"
                     "  TORCH_CHECK(a.scalar_type() == at::kHalf);\n"
                     "  TORCH_CHECK(b.scalar_type() == a.scalar_type());\n"
                     "}\n"
                     "at::Tensor f(const at::Tensor &x, const at::Tensor &w) {\n"
                     "  check_inputs(w, x);\n"
                     "  return at::empty_like(x);\n"
                     "}\n")
                  .Validation;
  EXPECT_EQ(describe(Op), "x: shape [x_0, x_1], dtypes same as w\n"
                          "w: shape [x_0, x_1], dtypes [float16], contiguous, cuda\n");
  EXPECT_EQ(Op.Inputs[1].Shape.At, "ops.cpp:3:3");
  EXPECT_EQ(Op.Inputs[0].Shape.At, "ops.cpp:5:3");
}

TEST_F(SpecDerivationDetailTest, ChecksInNestedHelpersOfATreeHeaderThroughMacros) {
  writeTreeFile("csrc/checks.h",
                "#pragma once\n"
                "#include <torch/all.h>\n"
                "#define CHECK_CUDA(t) TORCH_CHECK((t).device().type() == at::kCUDA, #t)\n"
                "inline void check_cuda(const at::Tensor &t) { CHECK_CUDA(t); }\n"
                "inline void check_all(const at::Tensor &in, const at::Tensor &out) {\n"
                "  check_cuda(in);\n"
                "  check_cuda(out);\n"
                "  TORCH_CHECK(in.dim() == 3);\n"
                "  TORCH_CHECK(out.is_same_size(in));\n"
                "}\n");
  SpecOp Op = derive("#include \"csrc/checks.h\"\n"
                     "at::Tensor f(const at::Tensor &x, const at::Tensor &y) {\n"
                     "  check_all(x, y);\n"
                     "  return at::empty_like(x);\n"
                     "}\n")
                  .Validation;
  EXPECT_EQ(describe(Op), "x: shape [x_0, x_1, x_2], dtypes ?, cuda\n"
                          "y: shape [x_0, x_1, x_2], dtypes ?, cuda\n");
  EXPECT_EQ(Op.Inputs[0].Shape.At, "csrc/checks.h:8:3");
  EXPECT_EQ(Op.Inputs[0].Device.At, "csrc/checks.h:4:47");
}

TEST_F(SpecDerivationDetailTest, ChecksInALambdaCalledByName) {
  SpecOp Op =
      derive("#include <torch/all.h>\n"
             "at::Tensor f(const at::Tensor &x, const at::Tensor &w) {\n"
             "  auto check = [&](const at::Tensor &t) { TORCH_CHECK(t.is_contiguous()); };\n"
             "  check(x);\n"
             "  check(w);\n"
             "  TORCH_CHECK(x.dim() == 1 && x.sizes() == w.sizes());\n"
             "  return at::empty_like(x);\n"
             "}\n")
          .Validation;
  EXPECT_EQ(describe(Op), "x: shape [x_0], dtypes ?, contiguous\n"
                          "w: shape [x_0], dtypes ?, contiguous\n");
}

// What is not always run, or not the tree's, is not followed.
TEST_F(SpecDerivationDetailTest, HelpersCalledInABranchOrFromTorchAreNotFollowed) {
  SpecOp Op = derive("#include <torch/all.h>\n"
                     "void check_rank(const at::Tensor &t) { TORCH_CHECK(t.dim() == 2); }\n"
                     "at::Tensor f(const at::Tensor &x, const at::Tensor &w, bool strict) {\n"
                     "  if (strict) check_rank(x);\n"
                     "  at::Tensor out = at::empty_like(w);\n"
                     "  return out;\n"
                     "}\n")
                  .Validation;
  EXPECT_EQ(describe(Op), "x: shape ?, dtypes ?\nw: shape ?, dtypes ?\n");
}

TEST_F(SpecDerivationDetailTest, OutputsComeFromTheSchema) {
  SpecOp Op = derive("#include <torch/all.h>\n"
                     "std::tuple<at::Tensor, at::Tensor> f(at::Tensor &out, const at::Tensor &x,\n"
                     "                                     double eps, bool flag) {\n"
                     "  return {out, at::empty_like(x)};\n"
                     "}\n")
                  .Validation;
  ASSERT_EQ(Op.Outputs.size(), 3u);
  EXPECT_EQ(Op.Outputs[0].Result, 0u);
  EXPECT_EQ(Op.Outputs[0].Argument, "out") << "the first result aliases `out`";
  EXPECT_EQ(Op.Outputs[1].Result, 1u);
  EXPECT_EQ(Op.Outputs[1].Argument, "");
  EXPECT_FALSE(Op.Outputs[2].Result.has_value());
  EXPECT_EQ(Op.Outputs[2].Argument, "out");
  EXPECT_FALSE(Op.Outputs[2].InPlace.known());
  EXPECT_EQ(Op.Inputs[2].Type, "float");
  EXPECT_FALSE(Op.Inputs[2].IsTensor);
  EXPECT_EQ(Op.Tolerances.Source, ValueSource::Default);
  EXPECT_FALSE(Op.Reference.known());
  EXPECT_FALSE(Op.Cases.known());
  // Written and read back: a bool has no range, a float has one to fill.
  std::string Text = serializeValidationSpec({"d", {Op}});
  nlohmann::json Inputs = nlohmann::json::parse(Text)["ops"][0]["inputs"];
  EXPECT_EQ(Inputs[2]["range"], "TODO");
  EXPECT_FALSE(Inputs[3].contains("range"));
  llvm::Expected<ValidationSpec> Read = parseValidationSpec(Text, ConfigSyntax::Json, "s.json");
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  EXPECT_EQ(serializeValidationSpec(*Read), Text);
}

} // namespace
} // namespace opmig::migrate
