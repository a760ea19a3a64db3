//===- NvccCheckTest.cpp - Tests for asking nvcc about a TU ---------------===//
//
// The command and the error parser are checked on their own; the checks
// that run nvcc skip, saying so, on a machine without it.
//
//===----------------------------------------------------------------------===//

#include "opmig/support/NvccCheck.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace opmig;

namespace {

bool has(const std::vector<std::string> &Args, llvm::StringRef Arg) {
  return std::find(Args.begin(), Args.end(), Arg) != Args.end();
}

TEST(NvccCheckCommand, CudaTuRunsTheFrontEndForOneVirtualArch) {
  NvccCheckRequest Request;
  Request.Nvcc = "/opt/cuda/bin/nvcc";
  Request.MainFile = "/src/k.cu";
  Request.GpuArch = "sm_90a";
  Request.NvccFlags = {"--expt-relaxed-constexpr"};
  Request.Flags = {"-resource-dir=/usr/lib/llvm-22/lib/clang/22",
                   "--cuda-path=/usr/local/cuda",
                   "-isystem",
                   "/usr/local/cuda/include/cccl",
                   "-Wno-unknown-cuda-version",
                   "-w",
                   "-std=c++20",
                   "-DENABLE_BF16=1",
                   "-U__CUDA_NO_HALF_OPERATORS__",
                   "-I/src/include",
                   "-isystem",
                   "/torch/include",
                   "-include",
                   "/src/prelude.h",
                   "-ffast-math"};
  std::vector<std::string> Args = nvccCheckCommand(Request);
  EXPECT_EQ(Args.front(), "/opt/cuda/bin/nvcc");
  EXPECT_EQ(Args.back(), "/src/k.cu");
  for (llvm::StringRef Kept :
       {"-std=c++20", "-DENABLE_BF16=1", "-U__CUDA_NO_HALF_OPERATORS__", "-I/src/include",
        "/torch/include", "/src/prelude.h", "--expt-relaxed-constexpr",
        "-gencode=arch=compute_90a,code=compute_90a", "-cuda"})
    EXPECT_TRUE(has(Args, Kept)) << Kept.str();
  // Clang's own flags and the CCCL directory nvcc adds itself stay out.
  for (llvm::StringRef Dropped :
       {"-resource-dir=/usr/lib/llvm-22/lib/clang/22", "--cuda-path=/usr/local/cuda",
        "/usr/local/cuda/include/cccl", "-Wno-unknown-cuda-version", "-w", "-ffast-math"})
    EXPECT_FALSE(has(Args, Dropped)) << Dropped.str();
}

TEST(NvccCheckCommand, CppTuIsASyntaxCheckOfTheHostCompiler) {
  NvccCheckRequest Request;
  Request.Nvcc = "nvcc";
  Request.MainFile = "/src/bind.cpp";
  Request.NvccFlags = {"--expt-relaxed-constexpr"};
  Request.Flags = {"-std=c++17", "-I", "/src"};
  std::vector<std::string> Args = nvccCheckCommand(Request);
  EXPECT_TRUE(has(Args, "c++"));
  EXPECT_TRUE(has(Args, "-fsyntax-only"));
  EXPECT_TRUE(has(Args, "/src"));
  EXPECT_FALSE(has(Args, "--expt-relaxed-constexpr"));
  EXPECT_FALSE(has(Args, "-cuda"));
}

TEST(CompilerErrors, ReadsNvccAndHostCompilerFormats) {
  std::vector<CompilerError> Errors = parseCompilerErrors(
      "/src/a.cuh(894): error: calling a constexpr __host__ function from a __global__ function\n"
      "          detected during instantiation of ...\n"
      "/src/a.cuh(12): warning #20208-D: 'long double' is treated as 'double'\n"
      "/src/b.cu(3): catastrophic error: cannot open source file \"x.h\"\n"
      "In file included from /src/c.cpp:1:\n"
      "/src/c.h:5:10: fatal error: flash_api.h: No such file or directory\n"
      "/src/c.cpp:9:3: error: 'f' was not declared in this scope\n"
      "/src/c.cpp:10:1: warning: unused\n");
  ASSERT_EQ(Errors.size(), 4u);
  EXPECT_EQ(Errors[0].File, "/src/a.cuh");
  EXPECT_EQ(Errors[0].Line, 894u);
  EXPECT_EQ(Errors[0].Message, "calling a constexpr __host__ function from a __global__ function");
  EXPECT_EQ(Errors[1].File, "/src/b.cu");
  EXPECT_EQ(Errors[1].Message, "cannot open source file \"x.h\"");
  EXPECT_EQ(Errors[2].File, "/src/c.h");
  EXPECT_EQ(Errors[2].Line, 5u);
  EXPECT_EQ(Errors[2].Message, "flash_api.h: No such file or directory");
  EXPECT_EQ(Errors[3].Line, 9u);
}

TEST(CompilerErrors, NoErrorsInCleanOutput) {
  EXPECT_TRUE(parseCompilerErrors("").empty());
  EXPECT_TRUE(parseCompilerErrors("/src/a.cu(3): warning #177-D: variable declared\n").empty());
}

class NvccRun : public ::testing::Test {
protected:
  void SetUp() override {
    Nvcc = findNvcc("/usr/local/cuda");
    if (Nvcc.empty())
      GTEST_SKIP() << "no nvcc (neither /usr/local/cuda/bin/nvcc nor on PATH): "
                      "nvcc verdicts not checked";
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-nvcc-test", Dir));
    this->Dir = std::string(Dir);
  }
  void TearDown() override {
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }

  NvccVerdict check(llvm::StringRef Name, llvm::StringRef Text) {
    std::string Path = Dir + "/" + Name.str();
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(Path, EC);
      OS << Text;
    }
    NvccCheckRequest Request;
    Request.Nvcc = Nvcc;
    Request.MainFile = Path;
    Request.Flags = {"-std=c++17"};
    return checkWithNvcc(Request);
  }

  std::string Nvcc, Dir;
};

// Clang 22 rejects this (no `template` before a dependent template name).
constexpr const char *ClangOnlyError = R"(
template <typename T> struct Base {
  template <int N> __device__ static T load(const T *p) { return p[N]; }
};
template <typename T> struct Derived : Base<T> {
  __device__ static T first(const T *p) { return Derived::load<0>(p); }
};
__global__ void k(const float *in, float *out) { out[0] = Derived<float>::first(in); }
)";

TEST_F(NvccRun, AcceptsWhatOnlyClangRejects) {
  NvccVerdict Verdict = check("clang_only.cu", ClangOnlyError);
  EXPECT_TRUE(Verdict.Ran) << Verdict.Problem;
  EXPECT_TRUE(Verdict.Accepted);
  EXPECT_TRUE(Verdict.Errors.empty());
}

TEST_F(NvccRun, RejectsBrokenCudaWithItsFirstError) {
  NvccVerdict Verdict = check("broken.cu", "__global__ void k(float *p) { p[0] = undeclared; }\n");
  EXPECT_TRUE(Verdict.Ran) << Verdict.Problem;
  EXPECT_FALSE(Verdict.Accepted);
  ASSERT_FALSE(Verdict.Errors.empty());
  EXPECT_EQ(Verdict.Errors.front().Line, 1u);
  EXPECT_NE(Verdict.Errors.front().Message.find("undeclared"), std::string::npos);
}

TEST_F(NvccRun, RejectsBrokenCppThroughTheHostCompiler) {
  NvccVerdict Verdict = check("broken.cpp", "int f() { return missing(); }\n");
  EXPECT_TRUE(Verdict.Ran) << Verdict.Problem;
  EXPECT_FALSE(Verdict.Accepted);
  ASSERT_FALSE(Verdict.Errors.empty());
  EXPECT_NE(Verdict.Errors.front().Message.find("missing"), std::string::npos);
}

TEST(NvccMissing, AMissingCompilerIsNoVerdict) {
  NvccCheckRequest Request;
  Request.Nvcc = "/nonexistent/bin/nvcc";
  Request.MainFile = "/nonexistent/k.cu";
  NvccVerdict Verdict = checkWithNvcc(Request);
  EXPECT_FALSE(Verdict.Ran);
  EXPECT_FALSE(Verdict.Accepted);
  EXPECT_FALSE(Verdict.Problem.empty());
}

} // namespace
