//===- ReviewTest.cpp - `opmig review` on a real migration ----------------===//
//
// The sample operator migrated into a copy of the cache-dit-like target
// with `opmig migrate`, reviewed as it is, then with a problem planted.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

struct Migrated {
  MigrationCase Case = sampleIntoCacheDit();
  MigrationSandbox Box{Case};
  std::string NativeDir;
};

/// Migrates the sample; NativeDir is the folder holding its manifest.
void migrate(Migrated &M) {
  ToolResult R = runOpmig(migrateArgs(M.Case, M.Box));
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  for (const fs::directory_entry &E : fs::recursive_directory_iterator(M.Box.Target))
    if (E.path().filename() == "opmig-manifest.json")
      M.NativeDir = E.path().parent_path().string();
  ASSERT_FALSE(M.NativeDir.empty());
}

std::vector<std::string> reviewArgs(const Migrated &M, std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"review",      "--target", M.Box.Target, "--domain",
                                   M.Case.Domain, "--source", M.Box.Source};
  Args.insert(Args.end(), More.begin(), More.end());
  return Args;
}

// One migration (the slow part) reviewed as it is, then with problems planted.
TEST(ReviewToolTest, VerdictsAndExitCodesOnARealMigration) {
  Migrated M;
  ASSERT_NO_FATAL_FAILURE(migrate(M));
  ToolResult R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.Stdout, "verdict: thoughtful (every closure file is there with its provenance, "
                      "nothing extra, the generated glue as generated)\n");

  R = runOpmig({"review", "--target", M.Box.Target, "--domain", "nosuch"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("no opmig-manifest.json of domain 'nosuch'"), std::string::npos)
      << R.Stderr;

  writeFile(M.NativeDir + "/copied_by_hand.cuh", "int extra;\n");
  R = runOpmig(reviewArgs(M, {"--format", "json"}));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json J = R.json();
  EXPECT_EQ(J["verdict"], "mechanical");
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(J["findings"][0]["kind"], "over-copy");

  // A file the migration wrote is deleted: nothing else matters until it is back.
  for (const fs::directory_entry &E : fs::directory_iterator(M.NativeDir))
    if (E.is_regular_file() && E.path().filename() != "copied_by_hand.cuh" &&
        E.path().filename() != "opmig-manifest.json") {
      fs::remove(E.path());
      break;
    }
  R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("verdict: incomplete (1 missing-file)\n"), std::string::npos) << R.Stdout;
}

} // namespace
} // namespace opmig::test
