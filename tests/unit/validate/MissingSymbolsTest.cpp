#include "opmig/validate/MissingSymbols.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

// tl::AxpyLauncher<float>::run(float const*, float*, int, CUstream_st*)
const std::string AxpyRun = "_ZN2tl12AxpyLauncherIfE3runEPKfPfiP11CUstream_st";

class MissingSymbolsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-missing", Dir));
    write("k/launch.cuh", "template <typename T> struct AxpyLauncher { static void run(); };\n");
    write("k/op.cu", "void op() {}\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(const std::string &Relative, const std::string &Text) {
    std::string Path = std::string(Dir) + "/" + Relative;
    llvm::sys::fs::create_directories(llvm::StringRef(Path).rsplit('/').first);
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(MissingSymbolsTest, AMembersClassIsItsKeyword) {
  EXPECT_EQ(symbolKeyword(AxpyRun), "AxpyLauncher");
  EXPECT_EQ(symbolKeyword("_Z9launch_v2v"), "launch_v2");
}

TEST_F(MissingSymbolsTest, ATUTheManifestListsAndTheBuildLacksShouldDefineIt) {
  SymbolHome Home = homeOfSymbol(AxpyRun, std::string(Dir), {"k/launch.cuh", "k/op.cu", "k/f32.cu"},
                                 {"k/op.cu", "k/f32.cu"}, {"k/op.cu"});
  EXPECT_EQ(Home.File, "k/f32.cu");
  EXPECT_EQ(
      Home.Explanation,
      "the manifest lists k/f32.cu, which is missing from the target, so nothing compiles it");
  write("k/f32.cu", "template struct AxpyLauncher<float>;\n");
  Home = homeOfSymbol(AxpyRun, std::string(Dir), {"k/launch.cuh", "k/op.cu", "k/f32.cu"},
                      {"k/op.cu", "k/f32.cu"}, {"k/op.cu"});
  EXPECT_EQ(Home.Explanation,
            "the manifest's k/f32.cu names it, and the build does not compile it");
}

TEST_F(MissingSymbolsTest, OtherwiseTheFileThatNamesIt) {
  SymbolHome Home = homeOfSymbol(AxpyRun, std::string(Dir), {"k/op.cu", "k/launch.cuh"},
                                 {"k/op.cu"}, {"k/op.cu"});
  EXPECT_EQ(Home.File, "k/launch.cuh");
  EXPECT_EQ(Home.Explanation, "k/launch.cuh names it, and no TU the build compiles defines it");
  Home = homeOfSymbol("_Z5otherv", std::string(Dir), {"k/op.cu"}, {"k/op.cu"}, {"k/op.cu"});
  EXPECT_EQ(Home.File, "");
}

} // namespace
} // namespace opmig::validate
