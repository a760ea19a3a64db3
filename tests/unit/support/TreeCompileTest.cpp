//===- TreeCompileTest.cpp - Tests for compiling TUs on disk --------------===//
//
// A temporary tree with a CUDA TU and a C++ TU, compiled in place. Runs
// nvcc; skips, saying so, where there is none.
//
//===----------------------------------------------------------------------===//

#include "opmig/support/TreeCompile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;

namespace {

class TreeCompileTest : public ::testing::Test {
protected:
  void SetUp() override {
    Request.Nvcc = opmig::findNvcc("/usr/local/cuda");
    if (Request.Nvcc.empty())
      GTEST_SKIP() << "no nvcc (neither /usr/local/cuda/bin/nvcc nor on PATH): compiling on "
                      "disk is not exercised";
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-tree-compile", Dir));
    Request.Root = std::string(Dir);
    write("inc/scale.h", "#pragma once\n#define SCALE 2\n");
    write("k/scale.cu", "#include \"scale.h\"\n__global__ void s(float *p) { p[0] = SCALE; }\n");
    write("k/glue.cpp", "#include \"scale.h\"\nint glue() { return SCALE * WIDTH; }\n");
    Request.TUs = {"k/scale.cu", "k/glue.cpp"};
    Request.Flags = {"-std=c++17", "-DWIDTH=4", "-I" + Request.Root + "/inc"};
    Request.Jobs = 2;
  }
  void TearDown() override {
    if (!Request.Root.empty())
      llvm::sys::fs::remove_directories(Request.Root);
  }

  void write(const std::string &Relative, llvm::StringRef Text) {
    std::string Path = Request.Root + "/" + Relative;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }

  TreeCompileRequest Request;
};

TEST_F(TreeCompileTest, CompilesEachTUWithTheFlagsInRequestOrder) {
  std::vector<CompiledTU> Results = compileTree(Request);
  ASSERT_EQ(Results.size(), 2u);
  EXPECT_EQ(Results[0].Path, "k/scale.cu");
  EXPECT_EQ(Results[1].Path, "k/glue.cpp");
  for (const CompiledTU &TU : Results)
    EXPECT_TRUE(TU.Compiles) << TU.Path << ": " << TU.Errors.front().Message;
}

TEST_F(TreeCompileTest, ErrorsNameTheFileRelativeToTheRoot) {
  write("k/scale.cu", "#include \"scale.h\"\n__global__ void s(float *p) { p[0] = nope; }\n");
  Request.Flags.pop_back(); // The header is no longer found from glue.cpp.
  std::vector<CompiledTU> Results = compileTree(Request);
  for (const CompiledTU &TU : Results) {
    EXPECT_FALSE(TU.Compiles) << TU.Path;
    ASSERT_FALSE(TU.Errors.empty()) << TU.Path;
    EXPECT_EQ(TU.Errors.front().File, TU.Path);
    EXPECT_EQ(TU.Errors.front().Line, 1u);
    EXPECT_NE(TU.Errors.front().Message.find("scale.h"), std::string::npos)
        << TU.Errors.front().Message;
  }
}

TEST_F(TreeCompileTest, ACompilerThatDoesNotStartIsAnErrorOfEachTU) {
  Request.Nvcc = Request.Root + "/no-such-nvcc";
  std::vector<CompiledTU> Results = compileTree(Request);
  ASSERT_EQ(Results.size(), 2u);
  for (const CompiledTU &TU : Results) {
    EXPECT_FALSE(TU.Compiles);
    ASSERT_EQ(TU.Errors.size(), 1u);
    EXPECT_EQ(TU.Errors[0].File, TU.Path);
    EXPECT_FALSE(TU.Errors[0].Message.empty());
  }
}

/// Objects kept in a cache come back while the files their compile read are
/// unchanged, also for a copy of the tree at another path; a header edit
/// compiles the TUs that read it again, and a failed compile is not kept.
TEST_F(TreeCompileTest, ObjectsComeFromTheCacheWhileTheirInputsAreUnchanged) {
  std::string Scratch = Request.Root + "-scratch";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Scratch + "/objects"));
  Request.Stage = opmig::NvccStage::HostObject;
  Request.ObjectDir = Scratch + "/objects";
  Request.ObjectCacheDir = Scratch + "/cache";
  auto Reused = [&] {
    std::vector<bool> Flags;
    for (const CompiledTU &TU : compileTree(Request)) {
      EXPECT_TRUE(TU.Compiles) << TU.Path;
      EXPECT_TRUE(llvm::sys::fs::exists(TU.Object)) << TU.Path;
      Flags.push_back(TU.Reused);
    }
    return Flags;
  };
  EXPECT_EQ(Reused(), (std::vector<bool>{false, false}));
  EXPECT_EQ(Reused(), (std::vector<bool>{true, true}));
  write("k/glue.cpp", "#include \"scale.h\"\nint glue() { return SCALE * WIDTH + 1; }\n");
  EXPECT_EQ(Reused(), (std::vector<bool>{true, false}));
  write("inc/scale.h", "#pragma once\n#define SCALE 3\n");
  EXPECT_EQ(Reused(), (std::vector<bool>{false, false}));
  write("k/scale.cu", "__global__ void s(float *p) { p[0] = nope; }\n");
  EXPECT_FALSE(compileTree(Request)[0].Compiles);
  EXPECT_FALSE(compileTree(Request)[0].Reused) << "a failed compile is never kept";

  write("k/scale.cu", "#include \"scale.h\"\n__global__ void s(float *p) { p[0] = SCALE; }\n");
  std::string Copy = Scratch + "/copy";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Copy));
  for (const char *File : {"inc/scale.h", "k/scale.cu", "k/glue.cpp"}) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Copy + "/" + File));
    ASSERT_FALSE(llvm::sys::fs::copy_file(Request.Root + "/" + File, Copy + "/" + File));
  }
  EXPECT_EQ(Reused(), (std::vector<bool>{true, true})) << "as it was before the failed compile";
  Request.Flags.back() = "-I" + Copy + "/inc";
  Request.Root = Copy;
  EXPECT_EQ(Reused(), (std::vector<bool>{true, true})) << "the root is a placeholder in the key";
  Request.Root = Scratch.substr(0, Scratch.size() - std::string("-scratch").size());
  llvm::sys::fs::remove_directories(Scratch);
}

} // namespace
