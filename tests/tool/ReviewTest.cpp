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
  // As migrated: the generated tests cover what opmig can derive; smoke and
  // reference comparison are placeholders a person has to write.
  ToolResult R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("  smoke         required  no test (placeholder: "
                          "tests/kernels/test_cuda_merge_attn_states.py::test_merge_attn_states_"
                          "smoke)\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("  fake          required  tests/kernels/test_cuda_merge_attn_states.py"
                          "::test_fake_merge_attn_states_gives_the_derived_shapes_and_dtypes\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("verdict: mechanical (2 untested-layer)\n"), std::string::npos)
      << R.Stdout;

  // The person writes them.
  writeFile(M.Box.Target + "/tests/kernels/test_merge_attn_states_numerics.py",
            "import torch\n"
            "from cache_dit.kernels import merge_attn_states\n\n"
            "def _inputs():\n"
            "    v = torch.randn(2, 3, 8, device='cuda')\n"
            "    lse = torch.randn(2, 3, device='cuda')\n"
            "    return v, lse, v, lse\n\n"
            "def test_merge_attn_states_runs():\n"
            "    out, lse = merge_attn_states(*_inputs())\n"
            "    assert out.shape == (2, 3, 8) and out.dtype == torch.float32\n\n"
            "def test_merge_attn_states_matches_a_reference():\n"
            "    v, lse, _, _ = _inputs()\n"
            "    out, _ = merge_attn_states(v, lse, v, lse)\n"
            "    torch.testing.assert_close(out, v)\n");
  R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_NE(R.Stdout.find("verdict: thoughtful (every closure file is there with its provenance, "
                          "nothing extra, the generated glue as generated, no upstream name in "
                          "the API, a test for every required validation layer)\n"),
            std::string::npos)
      << R.Stdout;

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

  // A file the migration wrote is deleted: only what is missing counts.
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
