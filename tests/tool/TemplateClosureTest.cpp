//===- TemplateClosureTest.cpp - Per-dtype providers of class-template members ---===//
//
// The exact file sets of tests/fixtures/upstream/template_launch, written out
// here by hand (not recorded from a run): each op's launcher is a member of a
// class template whose specializations are provided by TUs of their own, in a
// different spelling per op. The closure must hold exactly the providing TUs
// of the specializations the dispatch reaches, say which specialization
// pulled each in, and leave every sibling op's files behind.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <gtest/gtest.h>
#include <set>

namespace opmig::test {
namespace {

using Paths = std::set<std::string>;

struct TemplateCase {
  std::string Entry;
  Paths OwnFiles; ///< Besides binding.cpp, ops.h and common/dispatch.h.
  std::map<std::string, std::set<std::string>> Provides;
  Paths LeftBehind; ///< Of the op's own folder.
};

void PrintTo(const TemplateCase &Case, std::ostream *OS) { *OS << Case.Entry; }

const TemplateCase Cases[] = {
    {"axpy",
     {"axpy/axpy_op.cu", "axpy/launch.cuh", "axpy/launch_impl.cuh", "axpy/launch_f32.cu",
      "axpy/launch_f16.cu"},
     {{"axpy/launch_f32.cu", {"tl::AxpyLauncher<float>::run"}},
      {"axpy/launch_f16.cu", {"tl::AxpyLauncher<c10::Half>::run"}}},
     {"axpy/launch_f64.cu"}},
    {"scale_rows",
     {"rows/rows_op.cu", "rows/rows.cuh", "rows/rows_impl.cuh", "rows/rows_f32.cu",
      "rows/rows_f16.cu"},
     {{"rows/rows_f32.cu", {"tl::RowScaler<float, 128>::launch"}},
      {"rows/rows_f16.cu", {"tl::RowScaler<c10::Half, 128>::launch"}}},
     {"rows/rows_unused.cu"}},
    {"gate",
     {"gate/gate_op.cu", "gate/gate.cuh", "gate/vec.h", "gate/gate_f32.cu", "gate/gate_f16.cu",
      "gate/vec_width.cu"},
     {{"gate/gate_f32.cu", {"tl::Gate<float>::apply"}},
      {"gate/gate_f16.cu", {"tl::Gate<c10::Half>::apply"}},
      {"gate/vec_width.cu", {"tl::VecWidth<c10::Half>::value", "tl::VecWidth<float>::value"}}},
     {}},
    {"bias_act",
     {"act/bias_act_op.cu", "act/bias_act.cuh", "act/bias_act_impl.cuh", "act/bias_act_relu.cu",
      "act/bias_act_id.cu"},
     {{"act/bias_act_relu.cu", {"tl::BiasAct<true>::run"}},
      {"act/bias_act_id.cu", {"tl::BiasAct<false>::run"}}},
     {}},
    {"pack",
     {"pack/pack_op.cu", "pack/pack.cuh", "pack/pack_impl.cuh", "pack/pack_vec_f32.cu",
      "pack/pack_scalar_f16.cu", "pack/tiler_f32.cu", "pack/tiles.cu"},
     {{"pack/pack_vec_f32.cu", {"tl::Packer<float, true>::run"}},
      {"pack/pack_scalar_f16.cu", {"tl::Packer<c10::Half, false>::run"}},
      {"pack/tiler_f32.cu", {"tl::Tiler<float>::Edge<256>::fix", "tl::Tiler<float>::launch<256>"}},
      {"pack/tiles.cu", {"tl::Tiler<c10::Half>::tiles", "tl::Tiler<float>::tiles"}}},
     {"pack/pack_vec_f16.cu"}},
};

class TemplateClosure : public ::testing::TestWithParam<TemplateCase> {};

TEST_P(TemplateClosure, HoldsExactlyTheReachedProviders) {
  const TemplateCase &Case = GetParam();
  std::vector<std::string> Args = {"analyze", "--source", fixture("upstream/template_launch"),
                                   "--entry", Case.Entry, "--format",
                                   "json",    "--verify"};
  auto Stubs = stubArgs();
  Args.insert(Args.end(), Stubs.begin(), Stubs.end());
  ToolResult Result = runOpmig(Args);
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();

  Paths Expected = {"csrc/binding.cpp", "csrc/ops.h", "csrc/common/dispatch.h"};
  for (const std::string &File : Case.OwnFiles)
    Expected.insert("csrc/" + File);
  Paths Actual;
  for (const auto &File : Doc["files"]) {
    std::string Path = File["path"];
    Actual.insert(Path);
    auto Provided = File["provides"].get<std::set<std::string>>();
    auto It = Case.Provides.find(Path.substr(5));
    EXPECT_EQ(Provided, It == Case.Provides.end() ? std::set<std::string>{} : It->second) << Path;
  }
  EXPECT_EQ(Actual, Expected);
  Paths LeftBehind = Doc["left_behind"].get<Paths>();
  for (const std::string &File : Case.LeftBehind)
    EXPECT_TRUE(LeftBehind.count("csrc/" + File)) << File;
  EXPECT_EQ(Doc["partial"], false);
  EXPECT_EQ(Doc["links_as_copied"], true);
  EXPECT_EQ(Doc["verify"]["links"], true) << Doc["verify"].dump(2);
  EXPECT_EQ(Doc["verify"]["undefined_symbols"], nlohmann::json::array());
}

INSTANTIATE_TEST_SUITE_P(Fixture, TemplateClosure, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return Info.param.Entry; });

} // namespace
} // namespace opmig::test
