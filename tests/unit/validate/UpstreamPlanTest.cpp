// The upstream closure as the diff and perf layers build it
// (validators/include/opmig/validate/UpstreamBuild.h), on a temporary tree.

#include "opmig/support/Hashing.h"
#include "opmig/validate/UpstreamBuild.h"
#include "opmig/validate/UpstreamRegistration.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

class UpstreamPlanTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("upstream-plan", Dir));
    Src = std::string(Dir);
    write("csrc/ops.h", "#pragma once\n#include <ATen/ATen.h>\n"
                        "at::Tensor scale_add(const at::Tensor &x, double alpha);\n");
    write("csrc/k/kernel.cu", "#include \"common/util.h\"\n#include \"beside.cuh\"\n"
                              "#include <cutlass/cutlass.h>\n#include <torch/all.h>\n"
                              "#include \"ops.h\"\n");
    write("csrc/k/beside.cuh", "#pragma once\n");
    write("csrc/common/util.h", "#pragma once\n");
    write("third_party/cutlass/include/cutlass/cutlass.h", "#include \"cutlass/numeric.h\"\n");
    write("third_party/cutlass/include/cutlass/numeric.h", "#pragma once\n");
    for (const char *File :
         {"csrc/ops.h", "csrc/k/kernel.cu", "csrc/k/beside.cuh", "csrc/common/util.h"})
      M.Files.push_back({File, std::string("kernels/d/") + File, sha256Hex(Texts[File]), "", {}});
    M.Ops.push_back({"scale_add", "opmig::kernels::d::scale_add", "scale_add",
                     "(Tensor x, float alpha) -> Tensor", true});
    M.Build = BuildRecord{20, {"-DFOO=1"}, {"kernels"}, {"--expt-relaxed-constexpr"}, "sm_90"};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Src); }

  void write(const std::string &File, const std::string &Text) {
    std::string Path = Src + "/" + File;
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
    Texts[File] = Text;
  }

  llvm::Expected<UpstreamPlan> plan(const std::vector<std::string> &Migrated = {}) {
    return planUpstreamBuild(M, Src, "opmig_d", {{"90a", false}}, {}, Migrated);
  }

  std::string Src;
  std::map<std::string, std::string> Texts;
  Manifest M;
};

TEST_F(UpstreamPlanTest, IncludeDirsAreWhereTheClosuresIncludesResolve) {
  // util.h through csrc; beside.cuh beside its includer; cutlass through its include dir,
  // found in the tree (and its own include through the same); torch nowhere.
  EXPECT_EQ(upstreamIncludeDirs(Src, {"csrc/k/kernel.cu", "csrc/common/util.h", "csrc/ops.h"}),
            (std::vector<std::string>{Src + "/csrc", Src + "/third_party/cutlass/include"}));
}

TEST_F(UpstreamPlanTest, TheUpstreamsFlagsFromTheManifestAndSetupPy) {
  write("setup.py", "flags = ['-O3', '-std=c++20']\n"
                    "# extra_compile_args={'nvcc': ['-O0']} is a comment\n"
                    "ext = CUDAExtension(extra_compile_args={'cxx': flags,\n"
                    "    'nvcc': [*flags, '--use_fast_math', '-lineinfo']})\n");
  llvm::Expected<UpstreamPlan> Plan = plan({"-O1"});
  ASSERT_TRUE(bool(Plan)) << llvm::toString(Plan.takeError());
  EXPECT_EQ(Plan->Sources, std::vector<std::string>{"csrc/k/kernel.cu"});
  EXPECT_EQ(Plan->CommonFlags, (std::vector<std::string>{"-std=c++20", "-DFOO=1"}));
  EXPECT_EQ(Plan->NvccFlags,
            (std::vector<std::string>{"--expt-relaxed-constexpr", "-O3", "--use_fast_math",
                                      "-lineinfo", "-gencode=arch=compute_90a,code=sm_90a"}));
  EXPECT_EQ(Plan->FlagsFrom, (std::vector<std::string>{"the manifest", "setup.py"}));
  EXPECT_TRUE(Plan->CodegenFlagsKnown);
  EXPECT_EQ(Plan->Namespace, "opmig_d_upstream");
  ASSERT_EQ(Plan->Entries.size(), 1u);
  EXPECT_EQ(Plan->Entries[0].Header, Src + "/csrc/ops.h");
  EXPECT_EQ(Plan->Entries[0].Schema, "(Tensor x, float alpha) -> Tensor");
}

TEST_F(UpstreamPlanTest, WithoutStatedFlagsTheMigratedBuildsCodegenFlagsAreUsed) {
  llvm::Expected<UpstreamPlan> Plan =
      plan({"-I/x", "-O3", "--expt-extended-lambda", "-DNDEBUG", "--use_fast_math"});
  ASSERT_TRUE(bool(Plan)) << llvm::toString(Plan.takeError());
  EXPECT_FALSE(Plan->CodegenFlagsKnown);
  EXPECT_EQ(Plan->NvccFlags,
            (std::vector<std::string>{"--expt-relaxed-constexpr", "-O3", "-DNDEBUG",
                                      "--use_fast_math", "-gencode=arch=compute_90a,code=sm_90a"}));
  EXPECT_NE(Plan->FlagsFrom.back().find("written nowhere in " + Src), std::string::npos);
}

TEST_F(UpstreamPlanTest, ATreeAtAnotherCommitIsNoReference) {
  write("csrc/common/util.h", "#pragma once\n// changed since the migration\n");
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_FALSE(bool(Plan));
  std::string Message = llvm::toString(Plan.takeError());
  EXPECT_NE(Message.find("the upstream file csrc/common/util.h differs from the one "
                         "kernels/d/csrc/common/util.h was migrated from"),
            std::string::npos)
      << Message;
  llvm::sys::fs::remove(Src + "/csrc/common/util.h");
  Plan = plan();
  ASSERT_FALSE(bool(Plan));
  EXPECT_NE(llvm::toString(Plan.takeError())
                .find("csrc/common/util.h (kernels/d/csrc/common/"
                      "util.h's origin) is not in"),
            std::string::npos);
}

// kernel.cu's lines 3-4 (the cutlass and torch includes) stand in for a
// sibling definition migrate left out.
LeftOutRange siblingLines(const std::string &Text) {
  LeftOutRange R;
  R.FirstLine = 3;
  R.LastLine = 4;
  R.Begin = Text.find("#include <cutlass");
  R.End = Text.find("#include \"ops.h\"");
  R.Definitions = {"sample_ops::fwd"};
  return R;
}

TEST_F(UpstreamPlanTest, WhatMigrateLeftOutOfATUIsInThePlanAndItsKey) {
  M.Files[1].LeftOut = {siblingLines(Texts["csrc/k/kernel.cu"])};
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_TRUE(bool(Plan)) << llvm::toString(Plan.takeError());
  ASSERT_EQ(Plan->LeftOut.count("csrc/k/kernel.cu"), 1u);
  EXPECT_EQ(Plan->LeftOut.at("csrc/k/kernel.cu")[0].Definitions,
            std::vector<std::string>{"sample_ops::fwd"});
  std::string Key = upstreamBuildKeyText(*Plan, "reg", "tc");
  EXPECT_NE(Key.find("left out csrc/k/kernel.cu: 47-99 lines 3-4 (sample_ops::fwd)"),
            std::string::npos)
      << Key;
  M.Files[1].LeftOut.clear();
  llvm::Expected<UpstreamPlan> Whole = plan();
  ASSERT_TRUE(bool(Whole));
  EXPECT_NE(upstreamBuildKeyText(*Whole, "reg", "tc"), Key);
}

// Without a recorded sha256 (nothing else says the file is the one migrated
// from), a range that does not fit the file is still bad input.
TEST_F(UpstreamPlanTest, ALeftOutRangeThatDoesNotFitTheFileIsAnError) {
  LeftOutRange R = siblingLines(Texts["csrc/k/kernel.cu"]);
  R.LastLine = 5;
  M.Files[1].LeftOut = {R};
  M.Files[1].UpstreamSha256.clear();
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_FALSE(bool(Plan));
  std::string Message = llvm::toString(Plan.takeError());
  EXPECT_NE(Message.find("the manifest says migrate left lines 3-5 (sample_ops::fwd) out of the "
                         "upstream csrc/k/kernel.cu, but bytes 47-99 are lines 3-4 of the file"),
            std::string::npos)
      << Message;
}

TEST_F(UpstreamPlanTest, AnEntryNeitherDeclaredNorDefinedIsAnError) {
  M.Ops[0].UpstreamFunction = "vllm::other_op";
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_FALSE(bool(Plan));
  EXPECT_EQ(llvm::toString(Plan.takeError()),
            "no header of the upstream closure declares vllm::other_op (op scale_add), and no TU "
            "of it (csrc/k/kernel.cu) defines it at namespace scope: the registration TU cannot "
            "declare it");
}

TEST_F(UpstreamPlanTest, AnEntryOnlyItsTUDefinesIsDeclaredAsWritten) {
  // A pybind TU: the entry in a namespace, no header declaring it.
  write("csrc/k/kernel.cu",
        "#include \"common/util.h\"\n#include \"beside.cuh\"\n"
        "#include <torch/all.h>\nnamespace vllm {\n"
        "at::Tensor other_op(const at::Tensor &x, int64_t n = 2) {\n"
        "  return x;\n}\n}\nPYBIND11_MODULE(m, m) { m.def(\"o\", &vllm::other_op); }\n");
  M.Files[1].UpstreamSha256 = sha256Hex(Texts["csrc/k/kernel.cu"]);
  M.Ops[0].UpstreamFunction = "other_op";
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_TRUE(bool(Plan)) << llvm::toString(Plan.takeError());
  ASSERT_EQ(Plan->Entries.size(), 1u);
  const UpstreamEntry &E = Plan->Entries[0];
  EXPECT_EQ(E.Header, "");
  EXPECT_EQ(E.Function, "::vllm::other_op");
  EXPECT_EQ(E.Declaration,
            "namespace vllm {\nat::Tensor other_op(const at::Tensor &x, int64_t n);\n}");
  // Beside the TU: absolute; through the include dirs or torch: as spelled.
  EXPECT_EQ(E.Includes, (std::vector<std::string>{"<common/util.h>", Src + "/csrc/k/beside.cuh",
                                                  "<torch/all.h>"}));
  EXPECT_EQ(Plan->Sources, std::vector<std::string>{"csrc/k/kernel.cu"}) << "linked as before";
  llvm::Expected<std::string> Source = upstreamRegistrationSource(Plan->Namespace, Plan->Entries);
  ASSERT_TRUE(bool(Source)) << llvm::toString(Source.takeError());
  EXPECT_NE(Source->find("#include <common/util.h>\n#include \"" + Src +
                         "/csrc/k/beside.cuh\"\n#include <torch/all.h>\n\n// ::vllm::other_op as "
                         "its defining TU writes it (no header declares it)\nnamespace vllm {\n"),
            std::string::npos)
      << *Source;
  EXPECT_NE(Source->find("return ::vllm::other_op(a0, a1);"), std::string::npos) << *Source;
}

TEST_F(UpstreamPlanTest, AStaticEntryIsAnErrorThatSaysSo) {
  write("csrc/k/kernel.cu", "static at::Tensor other_op(const at::Tensor &x) { return x; }\n");
  M.Files[1].UpstreamSha256 = sha256Hex(Texts["csrc/k/kernel.cu"]);
  M.Ops[0].UpstreamFunction = "other_op";
  llvm::Expected<UpstreamPlan> Plan = plan();
  ASSERT_FALSE(bool(Plan));
  EXPECT_EQ(llvm::toString(Plan.takeError()),
            "op scale_add: other_op is defined `static` (csrc/k/kernel.cu:1): no other TU can "
            "call it, so the upstream registration cannot; drop `static` upstream, or leave out "
            "the diff and perf layers");
}

TEST(UpstreamCodegenFlagsTest, ReadsCMakeAndSetupPyButNotComments) {
  EXPECT_EQ(
      codegenFlagsIn("set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -O3 --use_fast_math\")\n"
                     "# set(CMAKE_CUDA_FLAGS -O0)\n"
                     "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--ftz=true>)\n"
                     "target_compile_options(k PRIVATE -O3 -Xptxas=-O2 --maxrregcount=64)\n"),
      (std::vector<std::string>{"-O3", "--use_fast_math", "--ftz=true", "-Xptxas=-O2",
                                "--maxrregcount=64"}));
  EXPECT_TRUE(isCodegenFlag("-DNDEBUG"));
  EXPECT_FALSE(isCodegenFlag("-DFOO"));
  EXPECT_FALSE(isCodegenFlag("--expt-relaxed-constexpr"));
}

} // namespace
} // namespace opmig::validate
