//===- ClosureVerifierTest.cpp - A link check that cannot be fooled -------===//
//
// Plants broken closures (a correct analysis with one providing TU taken
// out) and checks that --verify's link check reports them as not linking,
// naming the missing specialization and the TU that would provide it. The
// symbols are template specializations, whose demangled names never equal a
// declaration's name: a check comparing names with the tree's declarations
// would let every one through. Each case runs with both compilers --verify
// builds with: nvcc (the default) and Clang.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/ClosureVerifier.h"

#include "opmig/analyze/Analyzer.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/support/NvccCheck.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace opmig::analyze {
namespace {

AnalysisResult analyze(const std::string &Entry) {
  setenv("OPMIG_NO_TORCH", "1", 1);
  AnalyzeOptions Options;
  Options.SourceRoot = std::string(OPMIG_FIXTURES_DIR) + "/upstream/template_launch";
  Options.Entries = {Entry};
  Options.ExtraArgs = {"-isystem", std::string(OPMIG_FIXTURES_DIR) + "/stubs/include"};
  // Every case analyses the same tree: the suite's cache.
  Options.CacheDir = OPMIG_TEST_ANALYSIS_CACHE;
  llvm::Expected<AnalysisResult> Result = analyzeClosure(Options);
  EXPECT_TRUE(bool(Result)) << llvm::toString(Result.takeError());
  return Result ? std::move(*Result) : AnalysisResult();
}

/// The analysis of `Entry` with `Path` removed from its closure.
AnalysisResult withoutFile(const std::string &Entry, const std::string &Path) {
  AnalysisResult Result = analyze(Entry);
  size_t Before = Result.Files.size();
  llvm::erase_if(Result.Files, [&](const ClosureFile &File) { return File.Path == Path; });
  EXPECT_EQ(Result.Files.size() + 1, Before) << Path << " was not in the closure";
  // As a closure that missed it would have it: one of the tree's other TUs.
  Result.OtherTUFlags[Path] = Result.TUFlags.at(Path);
  Result.TUFlags.erase(Path);
  return Result;
}

bool mentions(const std::vector<std::string> &Lines, const std::string &Text) {
  return llvm::any_of(
      Lines, [&](const std::string &Line) { return Line.find(Text) != std::string::npos; });
}

/// Runs each case with the compiler named by the parameter.
class ClosureVerifierTest : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    Options.ObjectCacheDir = buildCacheDir(OPMIG_TEST_ANALYSIS_CACHE) + "/objects";
    if (GetParam() == "nvcc") {
      Options.Nvcc = findNvcc("/usr/local/cuda");
      if (Options.Nvcc.empty())
        GTEST_SKIP() << "no nvcc here: the nvcc build of --verify is not checked";
    }
  }

  /// Verifies `Result`'s closure into `Result.Verify`, as the driver does.
  void verify(AnalysisResult &Result) {
    llvm::Expected<VerifyReport> Report = verifyClosure(Result, Options);
    ASSERT_TRUE(static_cast<bool>(Report)) << llvm::toString(Report.takeError());
    Result.Verify = std::move(*Report);
  }

  VerifyOptions Options;
};

TEST_P(ClosureVerifierTest, CorrectClosureLinks) {
  AnalysisResult Result = analyze("axpy");
  ASSERT_NO_FATAL_FAILURE(verify(Result));
  EXPECT_TRUE(Result.Verify.Compiles);
  EXPECT_TRUE(Result.Verify.Links);
  EXPECT_TRUE(Result.Verify.UndefinedSymbols.empty());
}

TEST_P(ClosureVerifierTest, MissingClassInstantiationTUIsNamed) {
  AnalysisResult Result = withoutFile("axpy", "csrc/axpy/launch_f32.cu");
  ASSERT_NO_FATAL_FAILURE(verify(Result));
  EXPECT_TRUE(Result.Verify.Compiles);
  EXPECT_FALSE(Result.Verify.Links);
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols,
                       "tl::AxpyLauncher<float>::run(float const*, float*, int, CUstream_st*) "
                       "(defined by csrc/axpy/launch_f32.cu)"))
      << llvm::join(Result.Verify.UndefinedSymbols, "\n");
  EXPECT_FALSE(mentions(Result.Verify.UndefinedSymbols, "c10::Half"))
      << "the f16 provider is still in the closure";
}

TEST_P(ClosureVerifierTest, MissingStaticDataMemberSpecializationIsNamed) {
  AnalysisResult Result = withoutFile("gate", "csrc/gate/vec_width.cu");
  ASSERT_NO_FATAL_FAILURE(verify(Result));
  EXPECT_FALSE(Result.Verify.Links);
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols,
                       "tl::VecWidth<float>::value (defined by csrc/gate/vec_width.cu)"))
      << llvm::join(Result.Verify.UndefinedSymbols, "\n");
}

TEST_P(ClosureVerifierTest, MissingExternTemplateProviderIsNamed) {
  AnalysisResult Result = withoutFile("gate", "csrc/gate/gate_f16.cu");
  ASSERT_NO_FATAL_FAILURE(verify(Result));
  EXPECT_FALSE(Result.Verify.Links);
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols, "tl::Gate<c10::Half>::apply("))
      << llvm::join(Result.Verify.UndefinedSymbols, "\n");
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols, "(defined by csrc/gate/gate_f16.cu)"));
}

TEST_P(ClosureVerifierTest, MissingMacroMadeInstantiationIsNamed) {
  // rows_f16.cu names neither RowScaler nor launch: TL_INSTANTIATE_ROWS does.
  AnalysisResult Result = withoutFile("scale_rows", "csrc/rows/rows_f16.cu");
  ASSERT_NO_FATAL_FAILURE(verify(Result));
  EXPECT_FALSE(Result.Verify.Links);
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols, "tl::RowScaler<c10::Half, 128>::launch("))
      << llvm::join(Result.Verify.UndefinedSymbols, "\n");
  EXPECT_TRUE(mentions(Result.Verify.UndefinedSymbols, "(defined by csrc/rows/rows_f16.cu)"));
}

INSTANTIATE_TEST_SUITE_P(Compilers, ClosureVerifierTest, ::testing::Values("nvcc", "clang"),
                         [](const auto &Info) { return Info.param; });

} // namespace
} // namespace opmig::analyze
