//===- CompileCheckTest.cpp - Tests for the migration compile check -------===//
//
// Migration results are built by hand over a temporary upstream tree: the
// check must tell an error the migration added from one upstream already
// had. Runs nvcc; skips, saying so, where there is none.
//
//===----------------------------------------------------------------------===//

#include "opmig/migrate/CompileCheck.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;

namespace {

constexpr const char *CleanKernel =
    "#include \"helper.h\"\n"
    "__global__ void scale(float *p, float s) { p[0] = twice(s); }\n";
constexpr const char *Helper = "#pragma once\n"
                               "__device__ inline float twice(float v) { return 2 * v; }\n";

class CompileCheckTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (opmig::findNvcc("/usr/local/cuda").empty())
      GTEST_SKIP() << "no nvcc (neither /usr/local/cuda/bin/nvcc nor on PATH): the compile "
                      "check is not exercised";
    Upstream = tempDir("opmig-cc-upstream");
    Target = tempDir("opmig-cc-target");
    write(Upstream + "/csrc/scale.cu", CleanKernel);
    write(Upstream + "/csrc/helper.h", Helper);
    write(Upstream + "/csrc/broken.cu", "__global__ void k(float *p) { p[0] = missing_name; }\n");
    R.Analysis.SourceRoot = Upstream;
    R.Analysis.CudaPath = "/usr/local/cuda";
    R.Analysis.GpuArch = "sm_90";
    for (const char *TU : {"csrc/scale.cu", "csrc/broken.cu"})
      R.Analysis.TUFlags[TU] = {"-std=c++17", "-I" + Upstream + "/csrc"};
    R.Plan.IncludeRoot = "kernels";
  }
  void TearDown() override {
    for (const std::string &Dir : {Upstream, Target})
      if (!Dir.empty())
        llvm::sys::fs::remove_directories(Dir);
  }

  static std::string tempDir(llvm::StringRef Prefix) {
    llvm::SmallString<128> Dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Prefix, Dir));
    return std::string(Dir);
  }
  static void write(const std::string &Path, llvm::StringRef Text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  void plan(const std::string &Path, const std::string &Content, const std::string &From = "") {
    migrate::PlannedChange Change;
    Change.Path = Path;
    Change.Kind = From.empty() ? migrate::ChangeKind::Generated : migrate::ChangeKind::Migrated;
    Change.NewContent = Content;
    Change.UpstreamPath = From;
    R.Changes.push_back(std::move(Change));
  }
  migrate::CompileCheckReport check() { return migrate::checkMigrationCompiles(R, {Target, 2}); }

  std::string Upstream, Target;
  migrate::MigrationResult R;
};

TEST_F(CompileCheckTest, PortedTreeThatCompilesPasses) {
  // The port respells the include from the include root.
  plan("kernels/sc/scale.cu",
       "#include \"sc/helper.h\"\n"
       "__global__ void scale(float *p, float s) { p[0] = twice(s); }\n",
       "csrc/scale.cu");
  plan("kernels/sc/helper.h", Helper, "csrc/helper.h");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  ASSERT_EQ(Report.TUs.size(), 1u); // Headers are compiled through their TUs.
  EXPECT_TRUE(Report.TUs[0].Compiles) << Report.TUs[0].Errors.front().Message;
  EXPECT_FALSE(Report.addsErrors());
}

TEST_F(CompileCheckTest, AnErrorTheMigrationAddedIsReportedAsAdded) {
  // The include was left in upstream's spelling: it no longer resolves.
  plan("kernels/sc/scale.cu", CleanKernel, "csrc/scale.cu");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  ASSERT_EQ(Report.TUs.size(), 1u);
  const migrate::TUCompile &TU = Report.TUs[0];
  EXPECT_FALSE(TU.Compiles);
  EXPECT_TRUE(TU.UpstreamCompiles);
  EXPECT_TRUE(TU.addsErrors());
  EXPECT_TRUE(Report.addsErrors());
  ASSERT_FALSE(TU.Errors.empty());
  EXPECT_EQ(TU.Errors.front().File, "kernels/sc/scale.cu"); // Target-relative, not the scratch.
  EXPECT_NE(TU.Errors.front().Message.find("helper.h"), std::string::npos);
}

TEST_F(CompileCheckTest, AnErrorUpstreamAlreadyHadIsNotTheMigrations) {
  plan("kernels/sc/broken.cu", "__global__ void k(float *p) { p[0] = missing_name; }\n",
       "csrc/broken.cu");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  const migrate::TUCompile &TU = Report.TUs.at(0);
  EXPECT_FALSE(TU.Compiles);
  EXPECT_FALSE(TU.UpstreamCompiles);
  EXPECT_NE(TU.UpstreamFirstError.find("missing_name"), std::string::npos);
  EXPECT_FALSE(Report.addsErrors());
}

TEST_F(CompileCheckTest, BrokenGeneratedGlueIsAnAddedError) {
  plan("kernels/sc/bindings.cpp", "int bind() { return undeclared_op(); }\n");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  EXPECT_FALSE(Report.TUs.at(0).Compiles);
  EXPECT_TRUE(Report.addsErrors());
}

TEST_F(CompileCheckTest, GlueFailingOnAnErrorUpstreamHasTooIsNotBlamed) {
  // A header both the ported TU and the glue include, broken upstream
  // already (a third-party header the upstream's compiler rejects).
  write(Upstream + "/csrc/vendor.h",
        "#pragma once\ninline int vendor() { return vendor_gone(); }\n");
  write(Upstream + "/csrc/uses_vendor.cpp", "#include \"vendor.h\"\n");
  R.Analysis.TUFlags["csrc/uses_vendor.cpp"] = {"-std=c++17", "-I" + Upstream + "/csrc"};
  const char *Vendor = "#pragma once\ninline int vendor() { return vendor_gone(); }\n";
  plan("kernels/sc/vendor.h", Vendor, "csrc/vendor.h");
  plan("kernels/sc/uses_vendor.cpp", "#include \"sc/vendor.h\"\n", "csrc/uses_vendor.cpp");
  plan("kernels/sc/bindings.cpp", "#include \"sc/vendor.h\"\nint bind() { return vendor(); }\n");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  ASSERT_EQ(Report.TUs.size(), 2u);
  for (const migrate::TUCompile &TU : Report.TUs) {
    EXPECT_FALSE(TU.Compiles) << TU.Path;
    EXPECT_FALSE(TU.addsErrors()) << TU.Path << ": " << TU.UpstreamFirstError;
  }
  EXPECT_FALSE(Report.addsErrors());
}

TEST_F(CompileCheckTest, HeadersTheMigrationLeavesAloneComeFromTheTarget) {
  write(Target + "/kernels/common/target_util.h",
        "#pragma once\ninline int util() { return 1; }\n");
  plan("kernels/sc/bindings.cpp",
       "#include \"common/target_util.h\"\nint bind() { return util(); }\n");
  migrate::CompileCheckReport Report = check();
  ASSERT_TRUE(Report.Ran) << Report.NotRunBecause;
  EXPECT_TRUE(Report.TUs.at(0).Compiles) << Report.TUs.at(0).Errors.front().Message;
}

TEST_F(CompileCheckTest, NothingToCompileSaysSo) {
  plan("kernels/sc/helper.h", Helper, "csrc/helper.h");
  migrate::CompileCheckReport Report = check();
  EXPECT_FALSE(Report.Ran);
  EXPECT_EQ(Report.NotRunBecause, "the migration writes no translation unit");
}

} // namespace
