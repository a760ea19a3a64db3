// What makes the upstream and the migrated builds of one kernel differ
// (validators/include/opmig/validate/FlagDifferences.h).

#include "opmig/validate/FlagDifferences.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

std::vector<std::string> described(const std::vector<FlagDifference> &Differences) {
  std::vector<std::string> Out;
  for (const FlagDifference &D : Differences)
    Out.push_back(D.describe());
  return Out;
}

const std::vector<std::string> Torch = {"-D__CUDA_NO_HALF_OPERATORS__", "--expt-relaxed-constexpr",
                                        "-I/torch/include"};

TEST(FlagDifferencesTest, SameCodeGenerationIsNoDifference) {
  std::vector<std::string> Upstream = Torch;
  Upstream.insert(Upstream.end(),
                  {"-O3", "--use_fast_math", "-gencode=arch=compute_90a,code=sm_90a"});
  // The same, spelled otherwise: a two-token -gencode, other include dirs.
  std::vector<std::string> Migrated = {"-I/elsewhere", "--use_fast_math", "-O3", "-gencode",
                                       "arch=compute_90a,code=sm_90a"};
  EXPECT_TRUE(compareNvccFlags(Upstream, Migrated).empty());
}

TEST(FlagDifferencesTest, NamesEachFeatureThatDiffers) {
  std::vector<std::string> Upstream = {"-O3", "--use_fast_math", "-DNDEBUG",
                                       "-gencode=arch=compute_90a,code=sm_90a"};
  std::vector<std::string> Migrated = {"-O2",
                                       "-Xptxas",
                                       "-O1",
                                       "-lineinfo",
                                       "--maxrregcount=64",
                                       "-gencode=arch=compute_90a,code=[sm_90a,compute_90a]",
                                       "-gencode=arch=compute_80,code=sm_80"};
  EXPECT_EQ(
      described(compareNvccFlags(Upstream, Migrated)),
      (std::vector<std::string>{"fast math (--use_fast_math): on upstream, off migrated",
                                "-O (host optimisation): 3 upstream, 2 migrated",
                                "-Xptxas -O (device optimisation): default upstream, 1 migrated",
                                "NDEBUG (asserts): defined upstream, "
                                "undefined migrated",
                                "--maxrregcount: unlimited upstream, 64 migrated",
                                "archs: sm_90a upstream, compute_90a sm_80 sm_90a migrated"}));
}

TEST(FlagDifferencesTest, LineInfoIsNoCodeDifference) {
  // causal-conv1d builds with -lineinfo; migrate drops it, and the SASS is the same.
  EXPECT_TRUE(compareNvccFlags({"-O3", "-lineinfo"}, {"-O3"}).empty());
  EXPECT_TRUE(compareNvccFlags({"--generate-line-info"}, {}).empty());
}

TEST(FlagDifferencesTest, MathFlagsCountAsFastMathImpliesThem) {
  // --use_fast_math is --ftz=true --prec-div=false --prec-sqrt=false --fmad=true.
  EXPECT_TRUE(compareNvccFlags({"--use_fast_math", "--ftz=true"}, {"-use_fast_math"}).empty());
  EXPECT_EQ(described(compareNvccFlags({}, {"--ftz=true", "-prec-div=false"})),
            (std::vector<std::string>{"--ftz: false upstream, true migrated",
                                      "--prec-div: true upstream, false migrated"}));
}

TEST(FlagDifferencesTest, LaunchBoundsIgnoreCommentsSpacingAndNamespaces) {
  llvm::StringRef Source =
      "template <int N>\n"
      "__global__ void __launch_bounds__(kThreads) a(float *x);\n"
      "// __launch_bounds__(1) in a comment\n"
      "/* __launch_bounds__(2) */\n"
      "__global__ void __launch_bounds__ (256, vops::detail::kMinBlocks) b();\n";
  EXPECT_EQ(launchBoundsOf(Source), (std::vector<std::string>{"kThreads", "256,kMinBlocks"}));
  llvm::StringRef Renamed = "__global__ void __launch_bounds__(kThreads) a(float *x);\n"
                            "__global__ void __launch_bounds__(256, cache_dit::ops::kMinBlocks)\n"
                            "b();\n";
  EXPECT_TRUE(compareLaunchBounds("csrc/a.cu", Source, "kernels/a.cu", Renamed).empty());
}

TEST(FlagDifferencesTest, ALostLaunchBoundIsNamedWithItsFiles) {
  EXPECT_EQ(
      described(compareLaunchBounds("csrc/k.cuh", "__global__ void __launch_bounds__(256) k();",
                                    "kernels/d/k.cuh", "__global__ void k();")),
      std::vector<std::string>{"launch bounds: __launch_bounds__(256) upstream, none "
                               "migrated (csrc/k.cuh -> kernels/d/k.cuh)"});
}

} // namespace
} // namespace opmig::validate
