#include "opmig/validate/GeneratedCases.h"

#include "opmig/validate/OpRequests.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

using nlohmann::json;
using Dims = std::map<std::string, int64_t>;

/// One op of a spec as migrate writes it: shapes and constraints from the
/// code, `cases` left TODO.
SpecOp opOf(const std::string &Yaml) {
  std::string Text = "schema: opmig.validation-spec/1\ndomain: d\nops:\n" + Yaml;
  llvm::Expected<ValidationSpec> Spec = parseValidationSpec(Text, ConfigSyntax::Yaml, "s.yaml");
  EXPECT_TRUE(bool(Spec)) << llvm::toString(Spec.takeError());
  return Spec ? Spec->Ops.front() : SpecOp();
}

/// rms_norm(x[rows, hidden], w[hidden], eps): 2-D with a shared hidden dim,
/// `hidden % 8 == 0`, and eps without a range.
constexpr const char *RmsNorm = R"yaml(- name: rms_norm
  schema: "(Tensor x, Tensor w, float eps) -> Tensor"
  inputs:
  - {name: x, type: Tensor, shape: {code: [rows, hidden], at: "n.cu:3:3"}, dtypes: {code: [float16, bfloat16], at: "n.cu:9:3"}}
  - {name: w, type: Tensor, shape: {code: [hidden], at: "n.cu:4:3"}, dtypes: {code: {same_as: x}, at: "n.cu:5:3"}}
  - {name: eps, type: float}
  constraints: [{code: "hidden % 8 == 0", at: "n.cu:6:3"}]
  outputs: [{result: 0}]
)yaml";

const SourcedCase *named(const GeneratedCases &G, const std::string &Name) {
  for (const SourcedCase &C : G.Cases)
    if (C.Case.Name == Name)
      return &C;
  return nullptr;
}

TEST(GeneratedCasesTest, ASharedHiddenDimWithAnAlignmentGetsEveryWidenedCase) {
  GeneratedCases G = generateCases(opOf(RmsNorm));
  ASSERT_TRUE(G.Missing.empty()) << G.Missing;
  std::vector<std::string> Names;
  for (const SourcedCase &C : G.Cases) {
    Names.push_back(C.Case.Name);
    EXPECT_EQ(C.Origin, "generated from the code");
    EXPECT_EQ(C.Case.Dims.at("hidden") % 8, 0) << C.Case.Name << " keeps hidden % 8 == 0";
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"generated-base", "generated-odd", "generated-one-row",
                                             "generated-many-rows"}));
  EXPECT_EQ(named(G, "generated-base")->Case.Dims, (Dims{{"hidden", 32}, {"rows", 32}}));
  EXPECT_TRUE(named(G, "generated-base")->Case.Dtypes.empty()) << "the base runs every dtype";
  const SpecCase &Odd = named(G, "generated-odd")->Case;
  EXPECT_EQ(Odd.Dims.at("rows"), 33) << "odd where nothing constrains it";
  EXPECT_NE(Odd.Dims.at("hidden") % 32, 0) << "no multiple of 32 where it cannot be odd";
  EXPECT_EQ(Odd.Dtypes, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(named(G, "generated-one-row")->Case.Dims.at("rows"), 1);
  EXPECT_EQ(named(G, "generated-many-rows")->Case.Dims.at("rows"), 4096);
  EXPECT_EQ(named(G, "generated-base")->Case.Scalars.at("eps"), 1e-6);
  ASSERT_EQ(G.Notes.size(), 1u);
  EXPECT_EQ(G.Notes.front(), "eps = 1e-06: opmig's default, the spec gives no range");
}

TEST(GeneratedCasesTest, ConstraintsThatRuleOutTheBaseSizeAreSearched) {
  std::string Op = RmsNorm;
  std::string From = R"(constraints: [{code: "hidden % 8 == 0", at: "n.cu:6:3"}])";
  Op.replace(
      Op.find(From), From.size(),
      R"(constraints: [{code: "hidden % 48 == 0", at: "n.cu:6:3"}, {code: "rows <= 16", at: "n.cu:7:3"}, {user: "hidden <= 100"}])");
  GeneratedCases G = generateCases(opOf(Op));
  ASSERT_TRUE(G.Missing.empty()) << G.Missing;
  for (const SourcedCase &C : G.Cases) {
    EXPECT_EQ(C.Case.Dims.at("hidden") % 48, 0) << C.Case.Name;
    EXPECT_LE(C.Case.Dims.at("hidden"), 100) << C.Case.Name;
    EXPECT_LE(C.Case.Dims.at("rows"), 16) << C.Case.Name;
  }
  EXPECT_EQ(named(G, "generated-base")->Case.Dims, (Dims{{"hidden", 48}, {"rows", 16}}));
  EXPECT_EQ(named(G, "generated-many-rows"), nullptr) << "no row count above the base fits";
}

TEST(GeneratedCasesTest, ALiteralSizeStaysAndEveryNamedDimGetsASize) {
  // rope(q[tokens, heads, 64], cos_sin[tokens, 2]): the code checks sizes 64
  // and 2; int and bool scalars without a range get defaults.
  GeneratedCases G = generateCases(opOf(R"yaml(- name: rope
  schema: "(Tensor q, Tensor cos_sin, int offset, bool neox) -> ()"
  inputs:
  - {name: q, type: "Tensor(a!)", shape: {code: [tokens, heads, 64], at: "r.cu:3:3"}}
  - {name: cos_sin, type: Tensor, shape: {code: [tokens, 2], at: "r.cu:4:3"}}
  - {name: offset, type: int}
  - {name: neox, type: bool}
  outputs: [{argument: q}]
)yaml"));
  ASSERT_TRUE(G.Missing.empty()) << G.Missing;
  EXPECT_EQ(named(G, "generated-base")->Case.Dims, (Dims{{"heads", 32}, {"tokens", 32}}));
  EXPECT_EQ(named(G, "generated-odd")->Case.Dims, (Dims{{"heads", 33}, {"tokens", 33}}));
  EXPECT_EQ(named(G, "generated-many-rows")->Case.Dims.at("tokens"), 4096);
  EXPECT_EQ(named(G, "generated-base")->Case.Scalars,
            (std::map<std::string, double>{{"neox", 0}, {"offset", 1}}));
  EXPECT_EQ(G.Notes.size(), 3u) << "offset, neox, and float32 as no input has dtypes";
}

TEST(GeneratedCasesTest, LeadingDimsHoldTheRows) {
  // norm(x[..., hidden], w[hidden]): x of any rank, as `x.dim() >= 1` and
  // `w.size(0) == x.size(-1)` derive it.
  GeneratedCases G = generateCases(opOf(R"yaml(- name: norm
  schema: "(Tensor x, Tensor w) -> Tensor"
  inputs:
  - {name: x, type: Tensor, shape: {code: ['...', hidden], at: "n.cu:3:3"}}
  - {name: w, type: Tensor, shape: {code: [hidden], at: "n.cu:4:3"}}
  outputs: [{result: 0}]
)yaml"));
  ASSERT_TRUE(G.Missing.empty()) << G.Missing;
  EXPECT_EQ(named(G, "generated-base")->Case.Dims, (Dims{{"...", 32}, {"hidden", 32}}));
  EXPECT_EQ(named(G, "generated-odd")->Case.Dims, (Dims{{"...", 33}, {"hidden", 33}}));
  EXPECT_EQ(named(G, "generated-one-row")->Case.Dims.at("..."), 1);
  EXPECT_EQ(named(G, "generated-many-rows")->Case.Dims.at("..."), 4096);
}

TEST(GeneratedCasesTest, AnUnknownRankIsSaidInsteadOfGuessed) {
  GeneratedCases G = generateCases(opOf(R"yaml(- name: scale
  schema: "(Tensor x, Tensor s, str mode) -> Tensor"
  inputs:
  - {name: x, type: Tensor, dtypes: {code: [float32], at: "s.cu:3:3"}}
  - {name: s, type: Tensor, shape: {code: [1], at: "s.cu:4:3"}}
  - {name: mode, type: str}
  outputs: [{result: 0}]
)yaml"));
  EXPECT_TRUE(G.Cases.empty());
  EXPECT_EQ(G.Missing, "x.shape (the code tells no rank), mode (a str: give its value in a "
                       "case's scalars)");
  EXPECT_TRUE(G.Notes.empty());
}

TEST(GeneratedCasesTest, TheRequestMarksGeneratedCasesAndTheirScalarsAreTyped) {
  OpRequest R = opRequest(opOf(RmsNorm));
  std::vector<std::string> Names;
  for (const json &Case : R.Op["cases"]) {
    Names.push_back(Case["name"]);
    EXPECT_EQ(Case["origin"], "generated from the code");
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"generated-base/float16", "generated-base/bfloat16",
                                             "generated-odd/float16", "generated-one-row/float16",
                                             "generated-many-rows/float16"}))
      << "no odd-sizes twin: the generated cases widen themselves";
  EXPECT_EQ(R.Op["bad_cases"].front()["origin"], "generated from the code");
  EXPECT_EQ(R.CasesFrom, "the spec gives no cases: 4 generated from the code (eps = 1e-06: "
                         "opmig's default, the spec gives no range)");
}

TEST(GeneratedCasesTest, AUserCaseAlwaysWins) {
  std::string Op = RmsNorm;
  Op += "  cases: {user: [{name: mine, dims: {rows: 3, hidden: 8}, scalars: {eps: 0.5}}]}\n";
  SourcedCase FromTest;
  FromTest.Case.Name = "upstream-t-1";
  FromTest.Case.Dims = {{"rows", 2}, {"hidden", 16}};
  FromTest.Origin = "from upstream test t.py:1";
  OpRequest R = opRequest(opOf(Op), {FromTest});
  std::vector<std::string> Names;
  for (const json &Case : R.Op["cases"]) {
    Names.push_back(Case["name"]);
    EXPECT_FALSE(Case.contains("origin")) << Case.dump();
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"mine/float16", "mine/bfloat16"}));
  EXPECT_TRUE(R.CasesFrom.empty());
}

TEST(GeneratedCasesTest, ScalarsFollowTheirSchemaType) {
  std::string Op = R"yaml(- name: f
  schema: "(Tensor x, int n, bool flag) -> Tensor"
  inputs:
  - {name: x, type: Tensor, shape: {user: [n_rows]}}
  - {name: n, type: int, range: {user: [3, 9]}}
  - {name: flag, type: bool}
  outputs: [{result: 0}]
  cases: {user: [{name: c, dims: {n_rows: 5}, scalars: {flag: true}}]}
)yaml";
  json Case = opRequest(opOf(Op)).Op["cases"].front();
  EXPECT_TRUE(Case["scalars"]["n"].is_number_integer()) << Case.dump();
  EXPECT_EQ(Case["scalars"]["flag"], true);
}

} // namespace
} // namespace opmig::validate
