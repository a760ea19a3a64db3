#include "opmig/validate/FirstError.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

TEST(FirstErrorTest, NinjaNamesTheFailingTUAndNvccItsFirstError) {
  std::string Log = "[1/4] Building CUDA object CMakeFiles/x.dir/a.cu.o\n"
                    "FAILED: CMakeFiles/x.dir/b.cu.o\n"
                    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -x cu -c "
                    "/t/kernels/x/b.cu -o CMakeFiles/x.dir/b.cu.o\n"
                    "/t/kernels/x/b.h(3): error: identifier \"oops\" is undefined\n"
                    "/t/kernels/x/b.cu(9): error: expected a \";\"\n"
                    "2 errors detected in the compilation of \"/t/kernels/x/b.cu\".\n";
  BuildFailure F = firstBuildError(Log, "/t");
  EXPECT_EQ(F.File, "kernels/x/b.cu");
  ASSERT_TRUE(F.First.has_value());
  EXPECT_EQ(F.First->File, "kernels/x/b.h");
  EXPECT_EQ(F.First->Line, 3u);
  EXPECT_EQ(F.summary(),
            "kernels/x/b.cu: kernels/x/b.h:3: error: identifier \"oops\" is undefined");
}

TEST(FirstErrorTest, AHostCompilersErrorWithoutNinja) {
  BuildFailure F = firstBuildError("In file included from /t/a.cpp:1:\n"
                                   "/t/a.h:7:5: error: 'x' was not declared in this scope\n",
                                   "/t");
  EXPECT_EQ(F.File, "");
  EXPECT_EQ(F.summary(), "a.h:7: error: 'x' was not declared in this scope");
}

TEST(FirstErrorTest, WithoutACompilersLineTheFirstLineSayingError) {
  BuildFailure F = firstBuildError("ld: warning: x\nmake: *** [all] Error 2\n", "/t");
  EXPECT_FALSE(F.First.has_value());
  EXPECT_EQ(F.summary(), "make: *** [all] Error 2");
  EXPECT_EQ(firstBuildError("", "/t").summary(), "the build failed without an error message");
}

TEST(FirstErrorTest, ACMakeErrorIsItsWholeParagraph) {
  BuildFailure F = firstBuildError("-- Found Torch\n"
                                   "CMake Error in CMakeLists.txt:\n"
                                   "  Target \"x\" requires the language dialect \"CUDA20\"\n"
                                   "  (with compiler extensions).\n"
                                   "\n"
                                   "-- Generating done\n",
                                   "/t");
  EXPECT_EQ(F.summary(), "CMake Error in CMakeLists.txt: Target \"x\" requires the language "
                         "dialect \"CUDA20\" (with compiler extensions).");
}

} // namespace
} // namespace opmig::validate
