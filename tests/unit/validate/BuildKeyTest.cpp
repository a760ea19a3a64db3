#include "opmig/validate/BuildKey.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

class BuildKeyTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-buildkey", Dir));
    write("k/a.cu", "__global__ void k() {}\n");
    Plan.Profile = "generic";
    Plan.Domain = "k";
    Plan.CMakeSourceDir = "k";
    Plan.Archs = {{"90a", false}};
    Plan.KeyedFiles = {"k/a.cu"};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(const std::string &Relative, const std::string &Text) {
    std::string Path = std::string(Dir) + "/" + Relative;
    llvm::sys::fs::create_directories(llvm::StringRef(Path).rsplit('/').first);
    std::error_code EC;
    llvm::raw_fd_ostream(Path, EC) << Text;
  }
  std::string key() { return buildKey(Plan, std::string(Dir), Tools); }

  llvm::SmallString<128> Dir;
  BuildPlan Plan;
  BuildToolchain Tools{"2.15.0", "/t/torch/lib", "/usr/local/cuda/bin/nvcc", "/usr/bin/c++",
                       "/usr/include/python3.11"};
};

TEST_F(BuildKeyTest, TheSameInputsGiveTheSameKey) {
  EXPECT_EQ(key(), key());
  EXPECT_EQ(key().size(), 16u);
}

TEST_F(BuildKeyTest, AFileEditedOnDiskChangesTheKey) {
  std::string Before = key();
  write("k/a.cu", "__global__ void k() { /* edited */ }\n");
  EXPECT_NE(key(), Before);
}

TEST_F(BuildKeyTest, ArchsFlagsAndTorchChangeTheKey) {
  std::string Before = key();
  Plan.Archs = {{"89", false}};
  EXPECT_NE(key(), Before);
  Plan.Archs = {{"90a", false}};
  Plan.Extension.NvccFlags = {"--use_fast_math"};
  EXPECT_NE(key(), Before);
  Plan.Extension.NvccFlags.clear();
  EXPECT_EQ(key(), Before);
  Tools.TorchVersion = "2.16.0";
  EXPECT_NE(key(), Before);
}

TEST_F(BuildKeyTest, TheKeyTextNamesEachInput) {
  std::string Text = buildKeyText(Plan, std::string(Dir), Tools);
  EXPECT_NE(Text.find("archs: 9.0a\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("file k/a.cu: "), std::string::npos) << Text;
  EXPECT_NE(Text.find("torch: 2.15.0 /t/torch/lib\n"), std::string::npos) << Text;
}

} // namespace
} // namespace opmig::validate
