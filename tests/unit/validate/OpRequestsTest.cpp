#include "opmig/validate/OpRequests.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

using nlohmann::json;

/// An op like vLLM's merge_attn_states with an argument output: one input
/// with dtypes of its own, one pinned to float32, the output following the
/// first, a scalar with a range, and an alignment constraint.
constexpr const char *MergeSpec = R"yaml(schema: opmig.validation-spec/1
domain: d
ops:
- name: merge
  schema: "(Tensor v, Tensor lse, Tensor(a!) out, float s) -> ()"
  inputs:
  - {name: v, type: Tensor, shape: {user: [T, H, D]}, dtypes: {user: [float16, bfloat16]}, contiguous: {user: true}, device: {user: cuda}}
  - {name: lse, type: Tensor, shape: {user: [T, H]}, dtypes: {user: [float32]}, device: {user: cuda}}
  - {name: out, type: "Tensor(a!)", shape: {user: [T, H, D]}, dtypes: {user: {same_as: v}}}
  - {name: s, type: float, range: {user: [0.5, 2]}}
  constraints: [{user: "D % 8 == 0"}]
  outputs: [{argument: out, in_place: {user: false}}]
  reference: {user: {python: "ref:merge"}}
  cases: {user: [{name: small, dims: {T: 4, H: 2, D: 16}}]}
)yaml";

json requestFor(const char *Text) {
  llvm::Expected<ValidationSpec> Spec = parseValidationSpec(Text, ConfigSyntax::Yaml, "s.yaml");
  EXPECT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  return opRequest(Spec->Ops.front()).Op;
}

const json &named(const json &Cases, const std::string &Name) {
  for (const json &Case : Cases)
    if (Case["name"] == Name)
      return Case;
  ADD_FAILURE() << "no case " << Name << " in " << Cases.dump();
  static const json None;
  return None;
}

TEST(OpRequestsTest, ACaseRunsForEachDtypeOfItsFirstInputWithOthersResolved) {
  json Op = requestFor(MergeSpec);
  std::vector<std::string> Names;
  for (const json &Case : Op["cases"])
    Names.push_back(Case["name"]);
  EXPECT_EQ(Names,
            (std::vector<std::string>{"small/float16", "small/bfloat16", "odd-sizes/float16"}));
  const json &Bf16 = named(Op["cases"], "small/bfloat16");
  EXPECT_EQ(Bf16["dtypes"],
            json::parse(R"({"v": "bfloat16", "lse": "float32", "out": "bfloat16"})"));
  EXPECT_EQ(Bf16["scalars"], json::parse(R"({"s": 0.5})")) << "a scalar without a value: its low";
  EXPECT_EQ(Op["reference"], "ref:merge");
  EXPECT_EQ(Op["outputs"], json::parse(R"([{"argument": "out", "in_place": false}])"));
}

TEST(OpRequestsTest, TheOddTwinKeepsTheConstraints) {
  json Op = requestFor(MergeSpec);
  EXPECT_EQ(named(Op["cases"], "odd-sizes/float16")["dims"],
            json::parse(R"({"D": 16, "H": 3, "T": 5})"))
      << "D = 17 would break D % 8 == 0";
}

TEST(OpRequestsTest, BadCasesBreakOneThingEach) {
  json Bad = requestFor(MergeSpec)["bad_cases"];
  const json &Dtype = named(Bad, "v-float64");
  EXPECT_EQ(Dtype["overrides"],
            json::parse(R"({"v": {"dtype": "float64"}, "out": {"dtype": "float64"}})"))
      << "out follows v's dtype";
  EXPECT_EQ(named(Bad, "lse-float64")["what"], "lse as float64 (it accepts float32)");
  for (const json &Case : Bad)
    EXPECT_EQ(Case["name"].get<std::string>().find("-rank-"), std::string::npos)
        << "a shape the user wrote does not fix the rank";
  EXPECT_EQ(named(Bad, "v-non-contiguous")["overrides"]["v"]["contiguous"], false);
  EXPECT_EQ(named(Bad, "lse-on-cpu")["what"], "lse on the CPU, the others on CUDA");
  EXPECT_EQ(named(Bad, "out-D-mismatch")["overrides"]["out"]["shape"], json::parse("[4, 2, 17]"));
  EXPECT_EQ(named(Bad, "empty-T")["expect"], "raise-or-return");
  EXPECT_EQ(named(Bad, "empty-T")["dims"]["T"], 0);
  const json &Breaks = named(Bad, "breaks-1");
  EXPECT_EQ(Breaks["what"], "D = 17 breaks `D % 8 == 0`");
  EXPECT_EQ(Breaks["expect"], "raise");
  for (const json &Case : Bad)
    EXPECT_EQ(Case["dtypes"], named(requestFor(MergeSpec)["cases"], "small/float16")["dtypes"])
        << "each starts from the first case";
}

TEST(OpRequestsTest, ARankTheCodeChecksGetsOneMoreDim) {
  std::string Text = MergeSpec;
  std::string From = "shape: {user: [T, H, D]}, dtypes: {user: [float16, bfloat16]}";
  Text.replace(Text.find(From), From.size(),
               R"(shape: {code: [T, H, D], at: "a.cu:3:3"}, dtypes: {user: [float16, bfloat16]})");
  json Bad = requestFor(Text.c_str())["bad_cases"];
  EXPECT_EQ(named(Bad, "v-rank-4")["overrides"]["v"]["shape"], json::parse("[2, 4, 2, 16]"));
  EXPECT_EQ(named(Bad, "v-rank-4")["what"], "v with 4 dims instead of 3");
}

/// rms_norm as migrate derives it: x of any rank, its last dim shared.
constexpr const char *NormSpec = R"yaml(schema: opmig.validation-spec/1
domain: d
ops:
- name: norm
  schema: "(Tensor x, Tensor w) -> Tensor"
  inputs:
  - {name: x, type: Tensor, shape: {code: ['...', hidden], at: "a.cu:3:3"}, dtypes: {user: [float32]}}
  - {name: w, type: Tensor, shape: {code: [hidden], at: "a.cu:5:3"}, dtypes: {user: [float32]}}
  outputs: [{result: 0}]
  cases: {user: [{name: rows, dims: {'...': 6, hidden: 32}}]}
)yaml";

TEST(OpRequestsTest, BehindLeadingDimsTheWrongRankIsOneBelowTheLeast) {
  json Bad = requestFor(NormSpec)["bad_cases"];
  EXPECT_EQ(named(Bad, "x-rank-0")["overrides"]["x"]["shape"], json::array());
  EXPECT_EQ(named(Bad, "x-rank-0")["what"], "x with 0 dims instead of at least 1");
  EXPECT_EQ(named(Bad, "w-hidden-mismatch")["overrides"]["w"]["shape"], json::parse("[33]"));
  for (const json &Case : Bad)
    EXPECT_NE(Case["name"], "empty-...") << "leading dims are no dim a case empties";
}

TEST(OpRequestsTest, MissingCasesAndShapesAreNamed) {
  OpRequest R = opRequest([] {
    llvm::Expected<ValidationSpec> Spec = parseValidationSpec(R"yaml(schema: opmig.validation-spec/1
domain: d
ops:
- name: f
  schema: "(Tensor x) -> Tensor"
  inputs: [{name: x, type: Tensor}]
  outputs: [{result: 0}]
)yaml",
                                                              ConfigSyntax::Yaml, "s.yaml");
    EXPECT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
    return Spec->Ops.front();
  }());
  EXPECT_EQ(R.Missing, "cases, x.shape (the code tells no rank)");
  EXPECT_TRUE(R.Op["cases"].empty());
  EXPECT_TRUE(R.Op["bad_cases"].empty());
  EXPECT_TRUE(R.Op["reference"].is_null());
}

} // namespace
} // namespace opmig::validate
