//===- StandInShapesTest.cpp - Stand-in shapes pass the fake's checks -----===//
//
// The generated per-op tests feed the fake stand-in tensors; each row gives
// an entry's checks and the stand-in shapes (OpSignature::StandInShapes),
// `x=4x8 w=8` or `none` when one size cannot satisfy the constraints.
//
//===----------------------------------------------------------------------===//

#include "EntrySignature.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace opmig::migrate {
namespace {

struct ShapesCase {
  const char *Name;
  const char *Params; ///< Of `f`; its result is `at::empty_like(x)`.
  const char *Body;
  const char *Expect;
};

std::ostream &operator<<(std::ostream &OS, const ShapesCase &C) { return OS << C.Name; }

std::string render(const std::optional<std::map<std::string, std::vector<int64_t>>> &Shapes) {
  if (!Shapes)
    return "none";
  std::vector<std::string> Parts;
  for (const auto &[Name, Shape] : *Shapes) {
    std::vector<std::string> Sizes;
    for (int64_t Size : Shape)
      Sizes.push_back(std::to_string(Size));
    Parts.push_back(Name + "=" + llvm::join(Sizes, "x"));
  }
  return llvm::join(Parts, " ");
}

class StandInShapesTest : public test::EntrySignatureTest,
                          public ::testing::WithParamInterface<ShapesCase> {};

TEST_P(StandInShapesTest, PassTheFakesChecks) {
  const ShapesCase &C = GetParam();
  OpSignature Sig = derive("#include <torch/all.h>\nat::Tensor f(" + std::string(C.Params) +
                           ") {\n" + C.Body + "  return at::empty_like(x);\n}\n");
  EXPECT_EQ(render(Sig.StandInShapes), C.Expect) << C.Body;
}

const char *const XW = "const at::Tensor &x, const at::Tensor &w";

const ShapesCase Cases[] = {
    {"UncheckedShapesKeepTheDefault", XW, "", "w=2x3x4x5 x=2x3x4x5"},
    {"RanksAndSharedDims", XW,
     "  TORCH_CHECK(x.dim() == 2 && w.dim() == 1);\n  TORCH_CHECK(w.size(0) == x.size(1));\n",
     "w=4 x=4x4"},
    {"LiteralSizeKept", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(1) == 3);\n", "x=4x3"},
    {"AlignmentRaisesTheSize", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 2);\n  TORCH_CHECK(x.size(1) % 16 == 0);\n", "x=16x16"},
    {"UpperBoundsHold", "const at::Tensor &x",
     "  TORCH_CHECK(x.dim() == 1);\n  TORCH_CHECK(x.size(0) % 64 == 0 && x.size(0) <= 128);\n",
     "x=64"},
    {"NamesThatMustDifferHaveNone", XW,
     "  TORCH_CHECK(x.dim() == 1 && w.dim() == 1);\n"
     "  TORCH_CHECK(x.size(0) == w.size(0) * 2);\n",
     "none"},
};

INSTANTIATE_TEST_SUITE_P(Table, StandInShapesTest, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return std::string(Info.param.Name); });

} // namespace
} // namespace opmig::migrate
