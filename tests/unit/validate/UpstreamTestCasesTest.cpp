#include "opmig/validate/UpstreamTestCases.h"

#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

using Dims = std::map<std::string, int64_t>;

/// rms_norm(out, x, w, eps) as migrate derives it from the code.
SpecOp rmsNorm() {
  llvm::Expected<ValidationSpec> Spec = parseValidationSpec(R"yaml(schema: opmig.validation-spec/1
domain: d
ops:
- name: rms_norm
  schema: "(Tensor(a!) out, Tensor x, Tensor w, float eps) -> ()"
  inputs:
  - {name: out, type: "Tensor(a!)", shape: {code: [rows, hidden], at: "n.cu:3:3"}, dtypes: {code: {same_as: x}, at: "n.cu:4:3"}}
  - {name: x, type: Tensor, shape: {code: [rows, hidden], at: "n.cu:3:3"}, dtypes: {code: [float16, bfloat16], at: "n.cu:9:3"}}
  - {name: w, type: Tensor, shape: {code: [hidden], at: "n.cu:4:3"}, dtypes: {code: {same_as: x}, at: "n.cu:5:3"}}
  - {name: eps, type: float}
  constraints: [{code: "hidden % 8 == 0", at: "n.cu:6:3"}]
  outputs: [{argument: out}]
)yaml",
                                                            ConfigSyntax::Yaml, "s.yaml");
  EXPECT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  return Spec->Ops.front();
}

UpstreamTests parsed(const char *Answer) {
  llvm::Expected<UpstreamTests> Tests = parseUpstreamTestsAnswer(Answer);
  EXPECT_TRUE(bool(Tests)) << llvm::toString(Tests.takeError());
  return Tests ? *Tests : UpstreamTests();
}

TEST(UpstreamTestCasesTest, ReadingsThatFitBecomeCasesMarkedWithTheirTest) {
  UpstreamTests Tests = parsed(R"({"files": 1, "ops": {"rms_norm": {"calls": 5, "with_shapes": 4,
    "found": [
     {"path": "tests/test_norm.py", "line": 19, "variant": 0,
      "args": [{"shape": [7, 64]}, {"shape": [7, 64]}, {"shape": [64]}, {"value": 1e-6}], "kwargs": {}},
     {"path": "tests/test_norm.py", "line": 27, "variant": 1,
      "args": [null, {"shape": [1, 128]}], "kwargs": {"eps": {"value": 1e-5}}},
     {"path": "tests/test_norm.py", "line": 30, "variant": 0,
      "args": [null, {"shape": [3, 20]}, null, null], "kwargs": {}},
     {"path": "tests/test_norm.py", "line": 31, "variant": 0,
      "args": [{"shape": [7, 64, 1]}], "kwargs": {}},
     {"path": "tests/test_norm.py", "line": 33, "variant": 0,
      "args": [{"shape": [7, 64]}, {"shape": [7, 32]}], "kwargs": {}}]}}})");
  CasesFromTests C = casesFromTests(rmsNorm(), Tests.Ops.at("rms_norm"), Tests.Files);
  ASSERT_EQ(C.Cases.size(), 2u) << C.Summary;
  EXPECT_EQ(C.Cases[0].Case.Name, "upstream-test_norm-19");
  EXPECT_EQ(C.Cases[0].Origin, "from upstream test tests/test_norm.py:19");
  EXPECT_EQ(C.Cases[0].Case.Dims, (Dims{{"hidden", 64}, {"rows", 7}}));
  EXPECT_EQ(C.Cases[0].Case.Scalars.at("eps"), 1e-6) << "the test's own eps";
  EXPECT_EQ(C.Cases[0].Case.Dtypes, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(C.Cases[1].Case.Name, "upstream-test_norm-27-1");
  EXPECT_EQ(C.Cases[1].Case.Scalars.at("eps"), 1e-5) << "a keyword argument";
  EXPECT_EQ(C.Summary, "5 calls of rms_norm seen in 1 upstream test file, 4 gave shapes: 2 "
                       "cases kept, 3 reading(s) did not fit the spec (tests/test_norm.py:30: it "
                       "breaks `hidden % 8 == 0`; tests/test_norm.py:31: out has 3 dims, the spec "
                       "says 2; tests/test_norm.py:33: hidden is 64 and 32)")
      << "each call that gave no case, with why";
}

TEST(UpstreamTestCasesTest, ALiteralSizeOfTheCodeMustMatch) {
  SpecOp Op = rmsNorm();
  Op.Inputs[2].Shape.Value = {"hidden", "2"};
  UpstreamTests Tests = parsed(R"({"files": 1, "ops": {"rms_norm": {"calls": 1, "with_shapes": 1,
    "found": [{"path": "t.py", "line": 3, "variant": 0,
               "args": [null, {"shape": [4, 16]}, {"shape": [16, 3]}], "kwargs": {}}]}}})");
  CasesFromTests C = casesFromTests(Op, Tests.Ops.at("rms_norm"), Tests.Files);
  EXPECT_TRUE(C.Cases.empty());
  EXPECT_NE(C.Summary.find("t.py:3: w's dim 1 is 3, the code says 2"), std::string::npos)
      << C.Summary;
}

TEST(UpstreamTestCasesTest, LeadingDimsTakeTheRowsTheyHold) {
  SpecOp Op = rmsNorm();
  Op.Inputs[0].Shape.Value = {"...", "hidden"};
  Op.Inputs[1].Shape.Value = {"...", "hidden"};
  UpstreamTests Tests = parsed(R"({"files": 1, "ops": {"rms_norm": {"calls": 3, "with_shapes": 3,
    "found": [
     {"path": "t.py", "line": 3, "variant": 0,
      "args": [{"shape": [2, 5, 64]}, {"shape": [2, 5, 64]}, {"shape": [64]}], "kwargs": {}},
     {"path": "t.py", "line": 4, "variant": 0,
      "args": [{"shape": [64]}, {"shape": [64]}, {"shape": [64]}], "kwargs": {}},
     {"path": "t.py", "line": 5, "variant": 0,
      "args": [{"shape": [3, 64]}, {"shape": [4, 64]}, {"shape": [64]}], "kwargs": {}}]}}})");
  CasesFromTests C = casesFromTests(Op, Tests.Ops.at("rms_norm"), Tests.Files);
  ASSERT_EQ(C.Cases.size(), 2u) << C.Summary;
  EXPECT_EQ(C.Cases[0].Case.Dims, (Dims{{"...", 10}, {"hidden", 64}})) << "2 x 5 rows";
  EXPECT_EQ(C.Cases[1].Case.Dims, (Dims{{"hidden", 64}})) << "no leading dims";
  EXPECT_NE(C.Summary.find("t.py:5: x's leading dims hold 4 rows, another's 3"), std::string::npos)
      << C.Summary;
}

TEST(UpstreamTestCasesTest, ShapesTheSpecLacksAreTakenAsReadAndKeywordsMatchUpToAnUnderscore) {
  // conv_update(x, state, weight, bias_, silu): the spec knows weight's shape only.
  llvm::Expected<ValidationSpec> Spec = parseValidationSpec(R"yaml(schema: opmig.validation-spec/1
domain: d
ops:
- name: conv_update
  schema: "(Tensor x, Tensor(a!) state, Tensor weight, Tensor? bias_, bool silu) -> Tensor"
  inputs:
  - {name: x, type: Tensor}
  - {name: state, type: "Tensor(a!)"}
  - {name: weight, type: Tensor, shape: {code: [dim, width], at: "c.cpp:3:3"}}
  - {name: bias_, type: "Tensor?"}
  - {name: silu, type: bool}
  constraints: [{code: "state_len >= width - 1", at: "c.cpp:5:3"}, {code: "width <= 4", at: "c.cpp:6:3"}]
  outputs: [{result: 0}]
)yaml",
                                                            ConfigSyntax::Yaml, "s.yaml");
  ASSERT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  UpstreamTests Tests =
      parsed(R"json({"files": 1, "ops": {"conv_update": {"calls": 4, "with_shapes": 3,
    "found": [
     {"path": "t.py", "line": 3, "variant": 0,
      "args": [{"shape": [2, 64, 1]}, {"shape": [2, 64, 3]}, {"shape": [64, 4]}],
      "kwargs": {"bias": {"shape": [64]}}},
     {"path": "t.py", "line": 4, "variant": 0,
      "args": [{"shape": [2, 64, 1]}, null, {"shape": [64, 8]}], "kwargs": {}},
     {"path": "t.py", "line": 5, "variant": 0,
      "args": [{"shape": [2, 64, 1]}, {"shape": [2, 64, 3]}, {"shape": [64, 4]}],
      "kwargs": {"activation": {"value": 1}}}],
    "unread": [{"path": "t.py", "line": 9, "why": "no argument's shape was read (x: `make(4)` is no tensor factory)"}]}}})json");
  CasesFromTests C = casesFromTests(Spec->Ops.front(), Tests.Ops.at("conv_update"), Tests.Files);
  ASSERT_EQ(C.Cases.size(), 1u) << C.Summary;
  EXPECT_EQ(C.Cases[0].Case.Dims, (Dims{{"dim", 64}, {"width", 4}}))
      << "state_len sizes no known shape: its constraint is not checked";
  EXPECT_EQ(C.Cases[0].Shapes, (std::map<std::string, std::vector<int64_t>>{
                                   {"bias_", {64}}, {"state", {2, 64, 3}}, {"x", {2, 64, 1}}}));
  EXPECT_EQ(C.Summary,
            "4 calls of conv_update seen in 1 upstream test file, 3 gave shapes: 1 case kept, 2 "
            "reading(s) did not fit the spec (t.py:4: state has no shape in the spec and none "
            "was read; t.py:5: its keyword `activation` is no parameter of conv_update; t.py:9: "
            "no argument's shape was read (x: `make(4)` is no tensor factory))");
}

TEST(UpstreamTestCasesTest, TheFixtureTreeIsReadWithPython) {
  llvm::ErrorOr<std::string> Python = llvm::sys::findProgramByName("python3");
  if (!Python)
    GTEST_SKIP() << "no python3 on PATH";
  llvm::Expected<UpstreamTests> Tests =
      readUpstreamTests(*Python, std::string(OPMIG_SOURCE_DIR) + "/tests/fixtures/upstream_tests",
                        {{"rms_norm", {"rms_norm"}}});
  ASSERT_TRUE(bool(Tests)) << llvm::toString(Tests.takeError());
  const UpstreamTestCalls &Calls = Tests->Ops.at("rms_norm");
  EXPECT_EQ(Calls.Calls, 4u);
  EXPECT_EQ(Calls.WithShapes, 3u);
  CasesFromTests C = casesFromTests(rmsNorm(), Calls, Tests->Files);
  std::vector<Dims> Kept;
  for (const SourcedCase &Case : C.Cases)
    Kept.push_back(Case.Case.Dims);
  EXPECT_EQ(Kept, (std::vector<Dims>{{{"hidden", 64}, {"rows", 7}},
                                     {{"hidden", 128}, {"rows", 1}},
                                     {{"hidden", 256}, {"rows", 33}},
                                     {{"hidden", 72}, {"rows", 5}}}))
      << "the dtype variants repeat the same sizes: " << C.Summary;
}

} // namespace
} // namespace opmig::validate
