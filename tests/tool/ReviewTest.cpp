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

/// `review` with `--source`: the closure is recomputed, parsed like the
/// migration was (the stubs after `--`).
std::vector<std::string> reviewArgs(const Migrated &M, std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"review",      "--target", M.Box.Target, "--domain",
                                   M.Case.Domain, "--source", M.Box.Source, "--no-cache"};
  Args.insert(Args.end(), More.begin(), More.end());
  for (const std::string &Arg : stubArgs())
    Args.push_back(Arg);
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

  // Upstream gains a TU the closure needs, and loses one it needed.
  fs::copy_file(M.Box.Source + "/csrc/attention/merge_attn_states_fp32.cu",
                M.Box.Source + "/csrc/attention/merge_attn_states_fp32_again.cu");
  std::string Bf16 = M.Box.Source + "/csrc/attention/merge_attn_states_bf16.cu";
  fs::rename(Bf16, Bf16 + ".away"); // Not a source file under that name.
  R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("missing-file csrc/attention/merge_attn_states_fp32_again.cu: the "
                          "recomputed closure needs this upstream file; it was not migrated"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("merge_attn_states_bf16.cu, which the recomputed closure no longer "
                          "needs\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("stale-provenance csrc/attention/merge_attn_states_bf16.cu: no longer "
                          "exists upstream\n"),
            std::string::npos)
      << R.Stdout;
  // Parsed without the stubs, the analysis is partial: the closure is not
  // compared, and the review says so.
  std::vector<std::string> NoStubs = {"review",      "--target", M.Box.Target, "--domain",
                                      M.Case.Domain, "--source", M.Box.Source, "--no-cache"};
  R = runOpmig(NoStubs);
  EXPECT_NE(R.Stdout.find("note: closure not recomputed: the analysis of --source was partial"),
            std::string::npos)
      << R.Stdout;
  EXPECT_EQ(R.Stdout.find("recomputed closure needs"), std::string::npos) << R.Stdout;
  fs::rename(Bf16 + ".away", Bf16);
  fs::remove(M.Box.Source + "/csrc/attention/merge_attn_states_fp32_again.cu");

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
