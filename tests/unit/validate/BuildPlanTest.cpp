#include "opmig/validate/BuildPlan.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

Manifest genericManifest() {
  Manifest M;
  M.Profile = "generic";
  M.Domain = "axpy";
  M.Files = {{"csrc/axpy/launch_f32.cu", "kernels/axpy/axpy/launch_f32.cu", "", "", {}},
             {"csrc/axpy/launch.cuh", "kernels/axpy/axpy/launch.cuh", "", "", {}}};
  M.Generated = {{"kernels/axpy/axpy.cpp", "aa", {}},
                 {"kernels/axpy/CMakeLists.txt", "bb", {}},
                 {"kernels/CMakeLists.txt", "", {{"subdirectory", "cc"}}},
                 {"tests/test_axpy.py", "dd", {}}};
  return M;
}

TEST(BuildPlanTest, GenericBuildsTheDomainsOwnCMakeProject) {
  llvm::Expected<BuildPlan> Plan = planCMakeBuild(genericManifest(), {{"90a", false}});
  ASSERT_TRUE(bool(Plan)) << llvm::toString(Plan.takeError());
  EXPECT_EQ(Plan->Kind, BuildKind::CMakeProject);
  EXPECT_EQ(Plan->CMakeSourceDir, "kernels/axpy");
  // Owned native files are keyed; neither the block in kernels/CMakeLists.txt nor Python.
  EXPECT_EQ(Plan->KeyedFiles,
            (std::vector<std::string>{"kernels/axpy/CMakeLists.txt", "kernels/axpy/axpy.cpp",
                                      "kernels/axpy/axpy/launch.cuh",
                                      "kernels/axpy/axpy/launch_f32.cu"}));
  EXPECT_EQ(Plan->ManifestTUs,
            (std::vector<std::string>{"kernels/axpy/axpy.cpp", "kernels/axpy/axpy/launch_f32.cu"}));
}

TEST(BuildPlanTest, GenericWithoutAGeneratedCMakeListsIsAnInputError) {
  Manifest M = genericManifest();
  M.Generated.erase(M.Generated.begin() + 1);
  llvm::Expected<BuildPlan> Plan = planCMakeBuild(M, {{"90a", false}});
  ASSERT_FALSE(bool(Plan));
  EXPECT_NE(llvm::toString(Plan.takeError()).find("records no generated CMakeLists.txt"),
            std::string::npos);
}

TEST(BuildPlanTest, TheExtensionsArchHelperBecomesTheRequestedArchs) {
  Manifest M = genericManifest();
  M.Profile = "cache-dit";
  ExtensionDeclaration D{"cache_dit._C_axpy",
                         {"csrc/kernels/axpy/axpy.cpp", "csrc/kernels/axpy/op.cu"},
                         {"csrc/kernels"},
                         {"-O3", "-std=c++20"},
                         {"-O3", "-std=c++20", "--use_fast_math", GencodePlaceholder}};
  BuildPlan Plan = planExtensionBuild(M, D, {{"90a", false}, {"100", true}});
  EXPECT_EQ(Plan.Kind, BuildKind::PythonExtension);
  EXPECT_EQ(Plan.Extension.NvccFlags,
            (std::vector<std::string>{"-O3", "-std=c++20", "--use_fast_math",
                                      "-gencode=arch=compute_90a,code=sm_90a",
                                      "-gencode=arch=compute_100,code=sm_100",
                                      "-gencode=arch=compute_100,code=compute_100"}));
  EXPECT_EQ(Plan.Extension.CxxFlags, D.CxxFlags);
  // The declared sources are keyed even when the manifest does not list them.
  EXPECT_NE(std::find(Plan.KeyedFiles.begin(), Plan.KeyedFiles.end(), "csrc/kernels/axpy/op.cu"),
            Plan.KeyedFiles.end());
}

TEST(BuildPlanTest, EveryKnownProfileIsBuiltAndNoOther) {
  EXPECT_TRUE(canBuildProfile("generic"));
  EXPECT_TRUE(canBuildProfile("cache-dit"));
  EXPECT_TRUE(canBuildProfile("veomni"));
  EXPECT_FALSE(canBuildProfile("flashinfer"));
  EXPECT_FALSE(canBuildProfile(""));
}

} // namespace
} // namespace opmig::validate
