//===- SiblingHeadersTest.cpp - Headers only a sibling op uses stay behind ---===//
//
// The exact closures of tests/fixtures/upstream/sibling_headers, written out
// here by hand (not recorded from a run): two TUs each define an entry and a
// sibling, and each sibling has headers of its own, reached directly, only
// through another header, or shared with the entry. The closure keeps what
// the entry's code uses, drops the sibling's includes (naming their lines),
// says which files the sibling would drag in, and --verify proves that the
// copy `migrate` makes links.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <gtest/gtest.h>
#include <set>

namespace opmig::test {
namespace {

using Paths = std::set<std::string>;

struct SiblingCase {
  std::string Entry;
  std::string TU;                          ///< Defines the entry and the sibling.
  Paths Files;                             ///< Besides the TU, binding.cpp and ops.h.
  std::map<unsigned, std::string> Dropped; ///< Line -> header, in the TU.
  std::string Sibling;                     ///< A sibling definition in the TU.
  Paths SiblingWouldNeed;
};

void PrintTo(const SiblingCase &Case, std::ostream *OS) { *OS << Case.Entry; }

const SiblingCase Cases[] = {
    // welford.h is used by the sibling only, but alone brings <cuda_bf16.h>.
    {"rms_norm",
     "norm/norm_ops.cu",
     {"norm/rms.cuh", "norm/tile.h", "norm/welford.h", "common/check.h"},
     {{5, "norm/ln.cuh"}},
     "layer_norm_op",
     {"norm/ln.cuh"}},
    {"layer_norm",
     "norm/norm_ops.cu",
     {"norm/ln.cuh", "norm/ln_detail.cuh", "norm/tile.h", "norm/welford.h", "common/check.h"},
     {{6, "norm/rms.cuh"}},
     "rms_norm_op",
     {"norm/rms.cuh"}},
    // common/math.cuh comes through gelu.cuh, so silu.cuh is not needed for it.
    {"gelu",
     "act/act_ops.cu",
     {"act/act_api.h", "act/gelu.cuh", "common/math.cuh", "common/check.h"},
     {{6, "act/silu.cuh"}},
     "sh::act::launch_silu",
     {"act/silu.cuh"}},
    {"silu",
     "act/act_ops.cu",
     {"act/act_api.h", "act/silu.cuh", "common/math.cuh", "common/check.h"},
     {{5, "act/gelu.cuh"}},
     "sh::act::launch_gelu",
     {"act/gelu.cuh"}},
};

class SiblingHeaders : public ::testing::TestWithParam<SiblingCase> {};

TEST_P(SiblingHeaders, StayBehindWithTheirSibling) {
  const SiblingCase &Case = GetParam();
  std::vector<std::string> Args = {"analyze", "--source", fixture("upstream/sibling_headers"),
                                   "--entry", Case.Entry, "--format",
                                   "json",    "--verify"};
  auto Stubs = stubArgs();
  Args.insert(Args.end(), Stubs.begin(), Stubs.end());
  ToolResult Result = runOpmig(Args);
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stdout << Result.Stderr;
  nlohmann::json Doc = Result.json();

  Paths Expected = {"csrc/binding.cpp", "csrc/ops.h", "csrc/" + Case.TU};
  for (const std::string &File : Case.Files)
    Expected.insert("csrc/" + File);
  Paths Actual;
  std::map<unsigned, std::string> Dropped;
  for (const auto &File : Doc["files"]) {
    Actual.insert(File["path"].get<std::string>());
    for (const auto &Include : File["dropped_includes"]) {
      EXPECT_EQ(File["path"], "csrc/" + Case.TU);
      Dropped[Include["line"]] = Include["file"].get<std::string>().substr(5);
      EXPECT_EQ(Include["spelling"], "\"" + Dropped[Include["line"]] + "\"");
    }
  }
  EXPECT_EQ(Actual, Expected);
  EXPECT_EQ(Dropped, Case.Dropped);
  for (const auto &[Line, Header] : Case.Dropped)
    EXPECT_TRUE(Doc["left_behind"].get<Paths>().count("csrc/" + Header)) << Header;

  bool SiblingSeen = false;
  for (const auto &Sibling : Doc["siblings"])
    if (Sibling["name"] == Case.Sibling) {
      SiblingSeen = true;
      Paths WouldNeed;
      for (const auto &File : Sibling["would_need"])
        WouldNeed.insert(File.get<std::string>().substr(5));
      EXPECT_EQ(WouldNeed, Case.SiblingWouldNeed);
    }
  EXPECT_TRUE(SiblingSeen) << Doc["siblings"].dump(2);
  EXPECT_EQ(Doc["partial"], false);
  // Copied whole, the TU would include a header that stays behind.
  EXPECT_EQ(Doc["links_as_copied"], false);
  EXPECT_EQ(Doc["links_after_slicing"], true);
  EXPECT_EQ(Doc["verify"]["compiles"], true) << Doc["verify"].dump(2);
  EXPECT_EQ(Doc["verify"]["links"], true) << Doc["verify"].dump(2);
}

INSTANTIATE_TEST_SUITE_P(Fixture, SiblingHeaders, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return Info.param.Entry; });

} // namespace
} // namespace opmig::test
