//===- ReviewTest.cpp - `opmig review` on a real migration ----------------===//
//
// The sample operator migrated into a copy of the cache-dit-like target
// with `opmig migrate`, reviewed as it is, then with a problem planted; the
// same with a copy of the cache-dit profile under another name; and the
// build check, which compiles the migrated domain with nvcc.
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
/// migration was (the stubs after `--`). The build check is left to its
/// own test: it costs an nvcc pass per TU.
std::vector<std::string> reviewArgs(const Migrated &M, std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"review",      "--target", M.Box.Target, "--domain",
                                   M.Case.Domain, "--source", M.Box.Source, "--no-compile-check"};
  Args.insert(Args.end(), More.begin(), More.end());
  for (const std::string &Arg : stubArgs())
    Args.push_back(Arg);
  return Args;
}

/// A copy of the manifest (a golden copy, say) makes two of the domain: the
/// review and the gate each say how to exclude it, in their own terms, and
/// doing so works.
void expectACopiedManifestIsExcludedAsAdvised(const Migrated &M) {
  std::string Copy = M.Box.Target + "/golden/opmig-manifest.json";
  fs::create_directories(M.Box.Target + "/golden");
  fs::copy_file(M.NativeDir + "/opmig-manifest.json", Copy);
  std::vector<std::string> Review = {"review",   "--target",    M.Box.Target,
                                     "--domain", M.Case.Domain, "--no-compile-check"};
  ToolResult R = runOpmig(Review);
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("two manifests of domain '" + M.Case.Domain + "': "), std::string::npos)
      << R.Stderr;
  EXPECT_NE(R.Stderr.find("; exclude the copy that is not the migration from the review "
                          "(--exclude)\n"),
            std::string::npos)
      << R.Stderr;
  Review.insert(Review.end(), {"--exclude", "golden/**"});
  EXPECT_NE(runOpmig(Review).ExitCode, 2);

  std::string Config = M.Box.Target + "/.opmig.yaml";
  writeFile(Config, "checks: [review]\nreview: {compile-check: false}\n");
  R = runOpmig({"gate", M.Box.Target});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("; exclude the copy that is not the migration from the review "
                          "(`exclude:` in " +
                          Config + ")\n"),
            std::string::npos)
      << R.Stderr;
  writeFile(Config, "checks: [review]\nreview: {compile-check: false}\nexclude: [\"golden/**\"]\n");
  R = runOpmig({"gate", M.Box.Target});
  EXPECT_NE(R.ExitCode, 2) << R.Stderr;
  fs::remove(Config);
  fs::remove_all(M.Box.Target + "/golden");
}

// One migration (the slow part) reviewed as it is, then with problems planted.
TEST(ReviewToolTest, VerdictsAndExitCodesOnARealMigration) {
  Migrated M;
  ASSERT_NO_FATAL_FAILURE(migrate(M));
  // As migrated: the generated tests cover what opmig can derive. Smoke and
  // reference comparison run the validation spec's cases (test_attn_spec.py),
  // which name no op: the review cannot tell a filled spec from a TODO one,
  // so they cover nothing here.
  ToolResult R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("  smoke         required  no test\n"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("  correctness   required  no test\n"), std::string::npos) << R.Stdout;
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
  ASSERT_NO_FATAL_FAILURE(expectACopiedManifestIsExcludedAsAdvised(M));

  writeFile(M.NativeDir + "/copied_by_hand.cuh", "int extra;\n");
  R = runOpmig(reviewArgs(M, {"--format", "json"}));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json J = R.json();
  EXPECT_EQ(J["verdict"], "mechanical");
  ASSERT_EQ(J["findings"].size(), 1u);
  EXPECT_EQ(J["findings"][0]["kind"], "over-copy");

  // SARIF and JUnit carry the same finding, with the same exit status.
  R = runOpmig(reviewArgs(M, {"--format", "sarif"}));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json Sarif = R.json();
  ASSERT_EQ(Sarif["runs"][0]["results"].size(), 1u) << R.Stdout;
  EXPECT_EQ(Sarif["runs"][0]["results"][0]["ruleId"], "over-copy");
  EXPECT_EQ(Sarif["runs"][0]["tool"]["driver"]["rules"].size(), 9u);
  EXPECT_EQ(Sarif["runs"][0]["properties"]["verdict"], "mechanical");
  R = runOpmig(reviewArgs(M, {"--format", "junit"}));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("tests=\"9\" failures=\"1\""), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("copied_by_hand.cuh: error: in the native folder but neither migrated "
                          "nor generated [over-copy]"),
            std::string::npos)
      << R.Stdout;

  // Upstream gains a TU the closure needs, and loses one it needed.
  fs::copy_file(M.Box.Source + "/csrc/attention/merge_attn_states_fp32.cu",
                M.Box.Source + "/csrc/attention/merge_attn_states_fp32_again.cu");
  std::string Bf16 = M.Box.Source + "/csrc/attention/merge_attn_states_bf16.cu";
  fs::rename(Bf16, Bf16 + ".away"); // Not a source file under that name.
  R = runOpmig(reviewArgs(M));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(
      R.Stdout.find("csrc/attention/merge_attn_states_fp32_again.cu: error: the "
                    "recomputed closure needs this upstream file; it was not migrated (re-run "
                    "opmig migrate) [missing-file]"),
      std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("merge_attn_states_bf16.cu, which the recomputed closure no longer "
                          "needs [over-copy]\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("csrc/attention/merge_attn_states_bf16.cu: error: no longer "
                          "exists upstream [stale-provenance]\n"),
            std::string::npos)
      << R.Stdout;
  // Parsed without the stubs, the analysis is partial: the closure is not
  // compared, and the review says so.
  std::vector<std::string> NoStubs = {"review",     "--target",          M.Box.Target,
                                      "--domain",   M.Case.Domain,       "--source",
                                      M.Box.Source, "--no-compile-check"};
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

/// The built-in cache-dit profile copied to a folder of its own, renamed
/// `my-cache-dit` (its `spec` key kept unless `KeepSpec` is false).
std::string copyCacheDitProfile(bool KeepSpec = true) {
  std::string Dir = makeTempDir() + "/my-cache-dit";
  fs::copy(std::string(OPMIG_SOURCE_DIR) + "/rules/profiles/cache-dit", Dir,
           fs::copy_options::recursive);
  nlohmann::json Profile = nlohmann::json::parse(readFile(Dir + "/profile.json"));
  Profile["name"] = "my-cache-dit";
  if (!KeepSpec)
    Profile.erase("spec");
  writeFile(Dir + "/profile.json", Profile.dump(2));
  return Dir;
}

/// `review` of `M` without `--source` or the build check: the coverage
/// matrix is what these tests are about.
ToolResult reviewCoverage(const Migrated &M, std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"review",   "--target",    M.Box.Target,
                                   "--domain", M.Case.Domain, "--no-compile-check"};
  Args.insert(Args.end(), More.begin(), More.end());
  return runOpmig(Args);
}

// Copying a profile under another name does not make its layers optional:
// the manifest records the spec the profile follows, and review requires
// that spec's layers, so smoke and correctness are still untested.
TEST(ReviewToolTest, ACopiedProfileKeepsItsSpecsLayers) {
  Migrated M;
  M.Case.Profile = copyCacheDitProfile();
  ASSERT_NO_FATAL_FAILURE(migrate(M));
  nlohmann::json Manifest = nlohmann::json::parse(readFile(M.NativeDir + "/opmig-manifest.json"));
  EXPECT_EQ(Manifest["profile"], "my-cache-dit");
  EXPECT_EQ(Manifest["spec"], "cache-dit");

  ToolResult R = reviewCoverage(M);
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("  smoke         required  no test\n"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("  correctness   required  no test\n"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("verdict: mechanical (2 untested-layer)\n"), std::string::npos)
      << R.Stdout;
  EXPECT_EQ(R.Stdout.find("thoughtful"), std::string::npos) << R.Stdout;

  // A manifest that names no spec (or an unknown one) requires every layer,
  // the optional module and round-trip layers included, and says why.
  Manifest.erase("spec");
  writeFile(M.NativeDir + "/opmig-manifest.json", Manifest.dump(2));
  R = reviewCoverage(M, {"--format", "json"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json J = R.json();
  EXPECT_EQ(J["spec"], "");
  EXPECT_NE(J["every_layer_required_because"].get<std::string>().find("names no spec"),
            std::string::npos)
      << J.dump(2);
  for (const nlohmann::json &Layer : J["coverage"])
    EXPECT_TRUE(Layer["required"].get<bool>()) << Layer["layer"];
  EXPECT_EQ(J["verdict"], "mechanical");
}

// A profile without a spec does not migrate: the error names the file and
// what to add, and nothing is written.
TEST(ReviewToolTest, AProfileWithoutASpecDoesNotMigrate) {
  Migrated M;
  std::string Profile = copyCacheDitProfile(/*KeepSpec=*/false);
  M.Case.Profile = Profile;
  ToolResult R = runOpmig(migrateArgs(M.Case, M.Box));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_NE(R.Stderr.find(Profile + "/profile.json:1:1: missing required key 'spec' in the "
                                    "profile: add the spec convention the profile follows, "
                                    "e.g. \"spec\": \"cache-dit\""),
            std::string::npos)
      << R.Stderr;
  EXPECT_FALSE(fs::exists(M.Box.Target + "/csrc/kernels/attn"));
}

/// An `opmig.validate/1` report of `Domain`, written by hand as `opmig
/// validate --format json` writes one: every layer passed but `parity`,
/// which has `Parity`, and `boundary`, skipped.
std::string validateReport(const std::string &Domain, const std::string &Parity,
                           const std::string &Schema = "opmig.validate/1") {
  nlohmann::json Layers = nlohmann::json::array();
  for (const char *Name : {"build", "import", "api", "fake", "smoke", "parity", "boundary"}) {
    std::string Status = std::string(Name) == "parity"     ? Parity
                         : std::string(Name) == "boundary" ? "skip"
                                                           : "pass";
    Layers.push_back({{"name", Name},
                      {"status", Status},
                      {"reason", Status == "fail" ? "1 check failed" : "checks ran"},
                      {"checks", nlohmann::json::array()}});
  }
  return nlohmann::json{{"schema", Schema},
                        {"target", "/gpu/target"},
                        {"domain", Domain},
                        {"profile", "cache-dit"},
                        {"passed", Parity != "fail"},
                        {"layers", Layers},
                        {"notes", nlohmann::json::array()},
                        {"findings", nlohmann::json::array()}}
      .dump(2);
}

// A fresh migration is mechanical for its untested smoke and correctness
// layers; a validate report whose smoke and parity layers passed
// covers both, in the review and in the gate. A failed layer does not, and
// a report that is not validate's, or is another domain's, is refused.
TEST(ReviewToolTest, AValidateReportCoversTheLayersItProved) {
  Migrated M;
  ASSERT_NO_FATAL_FAILURE(migrate(M));
  std::string Report = M.Box.Target + "/build/validate.json";
  writeFile(Report, validateReport(M.Case.Domain, "pass"));
  ToolResult R = reviewCoverage(M, {"--validation", Report});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr << R.Stdout;
  EXPECT_NE(R.Stdout.find("  smoke         required  by opmig validate (build/validate.json)\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find(", a test or an opmig validate pass for every required validation "
                          "layer)\n"),
            std::string::npos)
      << R.Stdout;
  R = reviewCoverage(M, {"--validation", Report, "--format", "sarif"});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.json()["runs"][0]["properties"]["validation_reports"][0]["path"],
            "build/validate.json");

  writeFile(Report, validateReport(M.Case.Domain, "fail"));
  R = reviewCoverage(M, {"--validation", Report});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("; opmig validate (build/validate.json) failed its parity layer: 1 "
                          "check failed [untested-layer]\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("verdict: mechanical (1 untested-layer)\n"), std::string::npos)
      << R.Stdout;

  writeFile(Report, validateReport(M.Case.Domain, "pass", "opmig.review/1"));
  R = reviewCoverage(M, {"--validation", Report});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("opmig: error: the validate report '" + Report +
                          "' (--validation) is not opmig.validate/1 (its schema is "
                          "'opmig.review/1'); give the JSON report of opmig validate\n"),
            std::string::npos)
      << R.Stderr;
  writeFile(Report, validateReport("other", "pass"));
  R = reviewCoverage(M, {"--validation", Report});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("the validate report '" + Report +
                          "' (--validation) is of domain 'other', not of '" + M.Case.Domain +
                          "', the domain reviewed\n"),
            std::string::npos)
      << R.Stderr;

  // The gate passes the reports its config names to the review of their
  // domain, and says where a wrong one was named.
  std::string Config = M.Box.Target + "/.opmig.yaml";
  writeFile(Config, "checks: [review]\nfail-on: warning\n"
                    "review: {compile-check: false, validation: [build/validate.json]}\n");
  R = runOpmig({"gate", M.Box.Target});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("' (`review.validation:` in " + Config +
                          ") is of domain 'other', which the gate does not review (" +
                          M.Case.Domain + ")\n"),
            std::string::npos)
      << R.Stderr;
  writeFile(Report, validateReport(M.Case.Domain, "pass"));
  R = runOpmig({"gate", M.Box.Target});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr << R.Stdout;
  EXPECT_NE(R.Stdout.find("review " + M.Case.Domain + ": thoughtful\n"), std::string::npos)
      << R.Stdout;
  writeFile(Config, "checks: [review]\nfail-on: warning\nreview: {compile-check: false}\n");
  R = runOpmig({"gate", M.Box.Target});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr << R.Stdout; // Smoke and correctness, untested.
}

/// `review` of `M` with the build check, parsed with the stand-in headers
/// as the migration was.
ToolResult reviewBuild(const Migrated &M, std::vector<std::string> More = {},
                       const std::vector<std::string> &Env = {}) {
  std::vector<std::string> Args = {"review", "--target", M.Box.Target, "--domain", M.Case.Domain};
  Args.insert(Args.end(), More.begin(), More.end());
  for (const std::string &Arg : stubArgs())
    Args.push_back(Arg);
  return runOpmig(Args, Env);
}

// The domain as it is on disk is compiled with nvcc and the flags the
// manifest records: as migrated, every TU compiles; a ported TU edited so
// that it does not makes the domain incomplete, whatever its tests.
TEST(ReviewToolTest, BuildCheckCompilesTheMigratedDomain) {
  if (!haveNvcc())
    GTEST_SKIP() << "no nvcc (neither /usr/local/cuda/bin/nvcc nor on PATH): the build check "
                    "of review is not exercised";
  Migrated M;
  ASSERT_NO_FATAL_FAILURE(migrate(M));
  // A cache of its own: the first review compiles every TU, the later ones
  // only what changed.
  std::string Cache = makeTempDir();
  auto reviewCached = [&](std::vector<std::string> More = {},
                          const std::vector<std::string> &Env = {}) {
    More.insert(More.end(), {"--cache-dir", Cache});
    return reviewBuild(M, More, Env);
  };
  ToolResult R = reviewCached();
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr; // Smoke and correctness, untested.
  EXPECT_EQ(R.Stdout.find("note: the build check reused"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("build check (nvcc, host objects for sm_90): 5 of 5 TUs compile; "
                          "linked against "),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find(": no undefined symbol\n"), std::string::npos) << R.Stdout;
  EXPECT_EQ(R.Stdout.find("does-not-compile"), std::string::npos) << R.Stdout;
  EXPECT_EQ(R.Stdout.find("does-not-link"), std::string::npos) << R.Stdout;
  EXPECT_NE(R.Stdout.find("verdict: mechanical (2 untested-layer)\n"), std::string::npos)
      << R.Stdout;

  std::string Cu = M.NativeDir + "/attention/merge_attn_states_fp32.cu";
  ASSERT_TRUE(fs::exists(Cu));
  writeFile(Cu, readFile(Cu) + "static_assert(sizeof(float) == 2, \"edited by hand\");\n");
  R = reviewCached({"--format", "json"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json J = R.json();
  EXPECT_EQ(J["verdict"], "incomplete");
  EXPECT_EQ(J["reasons"], nlohmann::json::array({"1 does-not-compile"}));
  std::string Path = fs::relative(Cu, M.Box.Target).string();
  nlohmann::json Failing;
  for (const nlohmann::json &F : J["findings"])
    if (F["kind"] == "does-not-compile")
      Failing.push_back(F);
  ASSERT_EQ(Failing.size(), 1u) << J.dump(2);
  EXPECT_EQ(Failing[0]["path"], Path);
  EXPECT_NE(Failing[0]["message"].get<std::string>().find("edited by hand"), std::string::npos)
      << Failing[0];
  const nlohmann::json &Build = J["build_check"];
  EXPECT_EQ(Build["ran"], true);
  EXPECT_EQ(Build["not_run_because"], "");
  EXPECT_EQ(Build["gpu_arch"], "sm_90");
  EXPECT_EQ(Build["compiling"], 4);
  EXPECT_EQ(Build["total"], 5);
  EXPECT_EQ(Build["reused"], 4) << "only the edited TU is compiled again";
  ASSERT_EQ(Build["tus"].size(), 5u);
  for (const nlohmann::json &TU : Build["tus"]) {
    EXPECT_EQ(TU["compiles"], TU["path"] != Path) << TU;
    EXPECT_EQ(TU["object_reused"], TU["path"] != Path) << TU;
    if (TU["path"] == Path) {
      ASSERT_FALSE(TU["errors"].empty());
      EXPECT_EQ(TU["errors"][0]["file"], Path);
      EXPECT_GT(TU["errors"][0]["line"].get<unsigned>(), 0u);
    }
  }

  // The text names the TU with its first error.
  R = reviewCached();
  EXPECT_NE(
      R.Stdout.find(Path + ": error: nvcc (host objects for sm_90) rejects it: " + Path + ":"),
      std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("build check (nvcc, host objects for sm_90): 4 of 5 TUs compile; not "
                          "linked (a TU does not compile)\n"),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("verdict: incomplete (1 does-not-compile)\n"), std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find("note: the build check reused 4 of 5 objects: their inputs are "
                          "unchanged since an earlier build\n"),
            std::string::npos)
      << R.Stdout;

  // Every TU compiles again, but the float instantiation of the launch is
  // gone: the host wrapper's use of it is undefined, and the domain could
  // not be loaded.
  writeFile(Cu, readFile(Cu).substr(0, readFile(Cu).find("static_assert(sizeof(float) == 2")));
  std::string Text = readFile(Cu);
  size_t At = Text.find("SAMPLE_INSTANTIATE_MERGE(float)");
  ASSERT_NE(At, std::string::npos) << Text;
  writeFile(Cu, Text.erase(At, std::string("SAMPLE_INSTANTIATE_MERGE(float)").size()));
  R = reviewCached({"--format", "json"});
  J = R.json();
  EXPECT_EQ(J["verdict"], "incomplete") << J.dump(2);
  EXPECT_EQ(J["reasons"], nlohmann::json::array({"1 does-not-link"}));
  EXPECT_EQ(J["build_check"]["compiling"], 5);
  EXPECT_EQ(J["build_check"]["reused"], 4);
  EXPECT_EQ(J["build_check"]["link"]["links"], false);
  ASSERT_EQ(J["build_check"]["link"]["undefined_symbols"].size(), 1u) << J["build_check"].dump(2);
  EXPECT_NE(J["build_check"]["link"]["undefined_symbols"][0]["symbol"].get<std::string>().find(
                "launch_merge_attn_states<float>"),
            std::string::npos)
      << J["build_check"]["link"];
  std::string Wrapper =
      fs::relative(M.NativeDir + "/attention/merge_attn_states.cu", M.Box.Target).string();
  for (const nlohmann::json &F : J["findings"]) {
    if (F["kind"] == "does-not-link") {
      EXPECT_EQ(F["path"], Wrapper) << F;
    }
  }

  // Without nvcc the check does not run, says so, and claims nothing.
  std::string Toolkit = makeTempDir();
  writeFile(Toolkit + "/include/cuda_runtime.h", "\n");
  R = reviewCached({"--cuda-path", Toolkit, "--format", "json"}, {"PATH=/usr/bin:/bin"});
  J = R.json();
  EXPECT_EQ(J["build_check"]["ran"], false) << R.Stderr;
  EXPECT_EQ(J["build_check"]["not_run_because"],
            "no nvcc (neither <cuda-path>/bin/nvcc nor on PATH)");
  EXPECT_EQ(J["verdict"], "mechanical"); // Untested layers; no claim about the build.
  R = reviewCached({"--cuda-path", Toolkit}, {"PATH=/usr/bin:/bin"});
  EXPECT_NE(R.Stdout.find("build check: not run (no nvcc (neither <cuda-path>/bin/nvcc nor on "
                          "PATH))\n"),
            std::string::npos)
      << R.Stdout << R.Stderr;
}

} // namespace
} // namespace opmig::test
