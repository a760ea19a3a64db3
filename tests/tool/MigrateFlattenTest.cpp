//===- MigrateFlattenTest.cpp - `migrate --flatten PREFIX` ------------------===//
//
// The nunchaku-shaped header_bodies fixture (wrappers under python/csrc,
// kernels under src/kernels) migrated with its upstream prefixes flattened:
// the dry run shows the flattened tree and says what was flattened, and the
// inputs that cannot be honoured (a prefix that is no folder of the closure,
// a malformed one, two files landing on one path) are input errors (exit 2)
// naming them, with nothing written; a file landing on one the profile
// generates moves aside, its includes following. MigrateGoldenTest's
// header_bodies_generic_flat writes the tree and compiles it.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>

namespace opmig::test {
namespace {

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

class MigrateFlattenTest : public ::testing::Test {
protected:
  ToolResult migrate(const std::vector<std::string> &Extra) const {
    return runOpmig(migrateArgs(Case, Box, Extra));
  }

  /// A run that must fail as bad input and leave the target as it was;
  /// returns its stderr.
  std::string inputError(const std::vector<std::string> &Extra) const {
    std::string Before = fullListing(Box.Target);
    ToolResult R = migrate(Extra);
    EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
    EXPECT_EQ(fullListing(Box.Target), Before) << "a refused migration wrote something";
    return R.Stderr;
  }

  MigrationCase Case{"header_bodies_generic_flat",
                     "tests/fixtures/upstream/header_bodies",
                     {"hb::ops::gemm", "hb::ops::quantize"},
                     "tests/fixtures/targets/generic_like",
                     "generic",
                     "hb"};
  MigrationSandbox Box{Case};
};

TEST_F(MigrateFlattenTest, DryRunShowsTheFlattenedTreeAndWritesNothing) {
  std::string Before = fullListing(Box.Target);
  // Spelled two ways, given twice: applied and reported once.
  std::vector<std::string> Flatten = {"--flatten",    "src/kernels", "--flatten",
                                      "python/csrc/", "--flatten",   "./src/kernels"};
  std::vector<std::string> Text = Flatten, Json = Flatten;
  Text.push_back("--dry-run");
  Json.insert(Json.end(), {"--dry-run", "--format", "json"});
  ToolResult R = migrate(Text);
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stdout, "+++ b/kernels/hb/gemm/gemm.cu")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "+++ b/kernels/hb/ops.h")) << R.Stdout;
  // Not under a prefix: below the shared folder (none) as before.
  EXPECT_TRUE(contains(R.Stdout, "+++ b/kernels/hb/src/interop/torch.h")) << R.Stdout;
  EXPECT_FALSE(contains(R.Stdout, "kernels/hb/src/kernels/")) << R.Stdout;
  // Includes between ported files follow: quoted from the include root.
  EXPECT_TRUE(contains(R.Stdout, "+#include \"hb/gemm/gemm.h\"")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "flatten src/kernels/ -> kernels/hb/\n")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "flatten python/csrc/ -> kernels/hb/\n")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "dry run: nothing written")) << R.Stdout;

  ToolResult J = migrate(Json);
  ASSERT_EQ(J.ExitCode, 0) << J.Stdout << J.Stderr;
  nlohmann::json Report = J.json();
  EXPECT_EQ(Report["flattened"], nlohmann::json({"src/kernels", "python/csrc"}));
  bool SawOps = false;
  for (const nlohmann::json &Change : Report["changes"])
    if (Change["path"] == "kernels/hb/ops.h") {
      SawOps = true;
      // The provenance keeps the upstream path.
      EXPECT_EQ(Change["upstream_path"], "python/csrc/ops.h");
    }
  EXPECT_TRUE(SawOps) << Report["changes"].dump(2);
  EXPECT_EQ(fullListing(Box.Target), Before) << "a dry run wrote something";
}

TEST_F(MigrateFlattenTest, WithoutFlattenTheReportSaysNothingIsFlattened) {
  ToolResult J = migrate({"--dry-run", "--format", "json"});
  ASSERT_EQ(J.ExitCode, 0) << J.Stdout << J.Stderr;
  EXPECT_EQ(J.json()["flattened"], nlohmann::json::array());
}

TEST_F(MigrateFlattenTest, PrefixThatIsNoFolderOfTheClosureIsAnInputError) {
  std::string Err = inputError({"--flatten", "src/kernelz"});
  EXPECT_TRUE(contains(Err, "the folder to flatten src/kernelz (--flatten): no file the "
                            "migration ports is under it"))
      << Err;
  EXPECT_TRUE(contains(Err, "src/kernels/gemm")) << "names the folders there are: " << Err;
  // A folder of the tree whose files the closure does not need.
  Err = inputError({"--flatten", "src/kernels/gemv"});
  EXPECT_TRUE(contains(Err, "flatten src/kernels/gemv (--flatten): no file")) << Err;
  // A file, not a folder.
  Err = inputError({"--flatten", "python/csrc/ops.h"});
  EXPECT_TRUE(contains(Err, "flatten python/csrc/ops.h (--flatten): no file")) << Err;
}

TEST_F(MigrateFlattenTest, MalformedPrefixIsAnInputErrorBeforeTheAnalysis) {
  for (const char *Spec : {"../header_bodies/src", "/src/kernels", ""}) {
    std::string Err = inputError({"--flatten", Spec});
    EXPECT_TRUE(contains(Err, std::string("invalid folder to flatten '") + Spec + "' (--flatten)"))
        << Err;
  }
}

TEST_F(MigrateFlattenTest, AFileLandingOnAGeneratedFileMovesAsideAndItsIncludersFollow) {
  // The generic profile generates <native dir>/<domain>.h; ops.h holds the
  // entries' definitions, which the generated binding includes.
  Case.Domain = "ops";
  ToolResult R = migrate({"--flatten", "python/csrc", "--dry-run"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stdout, "+++ b/kernels/ops/ops_upstream.h")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "+#include \"ops/ops_upstream.h\"")) << R.Stdout;
  ToolResult J = migrate({"--flatten", "python/csrc", "--dry-run", "--format", "json"});
  ASSERT_EQ(J.ExitCode, 0) << J.Stdout << J.Stderr;
  nlohmann::json Report = J.json();
  std::map<std::string, std::string> Upstream;
  for (const nlohmann::json &Change : Report["changes"])
    Upstream[Change["path"].get<std::string>()] = Change.value("upstream_path", "");
  EXPECT_EQ(Upstream["kernels/ops/ops_upstream.h"], "python/csrc/ops.h") << J.Stdout;
  ASSERT_TRUE(Upstream.count("kernels/ops/ops.h")) << J.Stdout;
  EXPECT_EQ(Upstream["kernels/ops/ops.h"], "") << "the generated binding header keeps its name";
}

TEST_F(MigrateFlattenTest, AHeaderNamedLikeTheDomainMovesToAFreeNameAndTheTreeCompiles) {
  // mamba's shape: csrc/selective_scan/selective_scan.h, domain selective_scan;
  // here with a scan_upstream.h of its own, so that the first free name is
  // taken, and a TU on the generated binding's path too.
  std::filesystem::remove_all(Box.Source);
  writeFile(Box.Source + "/csrc/scan/scan.cpp", "#include <torch/all.h>\n"
                                                "#include \"scan.h\"\n"
                                                "#include \"scan_upstream.h\"\n"
                                                "at::Tensor scan(const at::Tensor &x) {\n"
                                                "  TORCH_CHECK(scan_width() == kept(), \"k\");\n"
                                                "  return at::empty_like(x);\n"
                                                "}\n");
  writeFile(Box.Source + "/csrc/scan/scan.h",
            "#pragma once\ninline int scan_width() { return 4; }\n");
  writeFile(Box.Source + "/csrc/scan/scan_upstream.h",
            "#pragma once\ninline int kept() { return 4; }\n");
  Case.Entries = {"scan"};
  Case.Domain = "scan";
  ToolResult R =
      runOpmig(migrateArgs(Case, Box, {"--format", "json"}, /*Stubs=*/true, /*CompileCheck=*/true));
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  nlohmann::json Report = R.json();
  EXPECT_EQ(Report["compile_check"]["ran"], true) << Report["compile_check"].dump(2);
  for (const nlohmann::json &TU : Report["compile_check"]["tus"])
    EXPECT_TRUE(TU["compiles"].get<bool>()) << TU.dump(2);
  std::string Native = Box.Target + "/kernels/scan/";
  EXPECT_TRUE(contains(readFile(Native + "scan_upstream2.h"), "scan_width()"));
  EXPECT_TRUE(contains(readFile(Native + "scan_upstream.h"), "kept()"));
  std::string Includer = readFile(Native + "scan_upstream.cpp");
  EXPECT_TRUE(contains(Includer, "#include \"scan/scan_upstream2.h\"\n")) << Includer;
  EXPECT_TRUE(contains(Includer, "#include \"scan/scan_upstream.h\"\n")) << Includer;
  EXPECT_TRUE(contains(readFile(Native + "scan.h"), "opmig")) << "the generated binding header";
}

TEST_F(MigrateFlattenTest, TwoFilesLandingOnOnePathAreAnInputErrorNamingBoth) {
  // An upstream of its own: one TU including two headers of the same name.
  std::filesystem::remove_all(Box.Source);
  writeFile(Box.Source + "/csrc/op.cpp", "#include <torch/all.h>\n"
                                         "#include \"a/util.h\"\n"
                                         "#include \"b/util.h\"\n"
                                         "at::Tensor twice(const at::Tensor &x) {\n"
                                         "  TORCH_CHECK(a::one() + b::two() == 3, \"k\");\n"
                                         "  return at::empty_like(x);\n"
                                         "}\n");
  writeFile(Box.Source + "/csrc/a/util.h",
            "#pragma once\nnamespace a {\ninline int one() { return 1; }\n} // namespace a\n");
  writeFile(Box.Source + "/csrc/b/util.h",
            "#pragma once\nnamespace b {\ninline int two() { return 2; }\n} // namespace b\n");
  Case.Entries = {"twice"};
  std::string Err = inputError({"--flatten", "csrc/a", "--flatten", "csrc/b"});
  EXPECT_TRUE(contains(Err, "the folders to flatten (--flatten) place csrc/a/util.h (flattened "
                            "from csrc/a) and csrc/b/util.h (flattened from csrc/b) both at "
                            "util.h"))
      << Err;
  // Either one alone is fine.
  ToolResult One = migrate({"--flatten", "csrc/a", "--dry-run"});
  EXPECT_EQ(One.ExitCode, 0) << One.Stdout << One.Stderr;
  EXPECT_TRUE(contains(One.Stdout, "+++ b/kernels/hb/util.h")) << One.Stdout;
  EXPECT_TRUE(contains(One.Stdout, "+++ b/kernels/hb/b/util.h")) << One.Stdout;
}

} // namespace
} // namespace opmig::test
