//===- MigrateCacheTest.cpp - migrate reuses the analysis' cache and preamble -===//
//
// The rewrite's parses are cached beside the analysis' facts and use the
// analysis' shared preamble (docs/architecture.md, "The rewrite cache"): a
// re-run of an unchanged migration parses nothing and writes the golden
// tree again, and a migration with the preamble writes the tree one
// without it writes.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <sys/stat.h>

namespace opmig::test {
namespace {

std::string goldenDir(const MigrationCase &C) {
  return std::string(OPMIG_SOURCE_DIR) + "/tests/golden/migrate/" + C.Name;
}

MigrationCase multiOpGeneric() {
  return {"multi_op_generic", "tests/fixtures/upstream/multi_op",
          {"fused_fwd"},      "tests/fixtures/targets/generic_like",
          "generic",          "fused"};
}

/// Migrates `C` from `Box` (written); returns the target's changes and the
/// report's stats.
std::pair<Tree, nlohmann::json> migrate(const MigrationCase &C, const MigrationSandbox &Box,
                                        std::vector<std::string> Extra,
                                        const std::vector<std::string> &Env = {},
                                        bool Stubs = true) {
  Tree Before = snapshotTree(Box.Target);
  Extra.insert(Extra.end(), {"--format", "json"});
  ToolResult Run = runOpmig(migrateArgs(C, Box, Extra, Stubs), Env);
  EXPECT_EQ(Run.ExitCode, 0) << Run.Stdout << Run.Stderr;
  nlohmann::json Report = Run.json();
  EXPECT_EQ(Report["outcome"], "written") << Run.Stdout;
  return {treeChanges(Before, snapshotTree(Box.Target)), Report["stats"]};
}

class MigrateCache : public ::testing::TestWithParam<MigrationCase> {};

TEST_P(MigrateCache, AWarmRerunParsesNothingAndWritesTheGoldenTree) {
  const MigrationCase &C = GetParam();
  std::string Cache = makeTempDir();
  MigrationSandbox First(C);
  auto [Cold, ColdStats] = migrate(C, First, {"--cache-dir", Cache});
  EXPECT_EQ(describeTreeDifference(snapshotTree(goldenDir(C)), Cold), "");
  EXPECT_GT(ColdStats["rewrite"]["parses_run"].get<unsigned>(), 0u) << ColdStats.dump(1);
  EXPECT_EQ(ColdStats["rewrite"]["parses_cached"], 0) << ColdStats.dump(1);

  // The same upstream into a fresh target: every parse from the cache.
  MigrationSandbox Second(C);
  Second.Source = First.Source;
  auto [Warm, WarmStats] = migrate(C, Second, {"--cache-dir", Cache});
  EXPECT_EQ(describeTreeDifference(Cold, Warm), "");
  EXPECT_EQ(WarmStats["analysis"]["parses_run"], 0) << WarmStats.dump(1);
  EXPECT_EQ(WarmStats["rewrite"]["parses_run"], 0) << WarmStats.dump(1);
  EXPECT_EQ(WarmStats["signatures"]["parses_run"], 0) << WarmStats.dump(1);
  EXPECT_EQ(WarmStats["rewrite"]["parses_cached"], ColdStats["rewrite"]["parses_run"]);
}

TEST_P(MigrateCache, TheTreeIsTheSameWithAndWithoutThePreamble) {
  const MigrationCase &C = GetParam();
  MigrationSandbox With(C), Without(C);
  auto [Preamble, PreambleStats] = migrate(C, With, {"--no-cache"});
  auto [Plain, PlainStats] = migrate(C, Without, {"--no-cache"}, {"OPMIG_NO_PREAMBLE=1"});
  EXPECT_EQ(describeTreeDifference(snapshotTree(goldenDir(C)), Preamble), "");
  EXPECT_EQ(describeTreeDifference(Plain, Preamble), "");
  EXPECT_EQ(PlainStats["rewrite"]["parses_with_preamble"], 0);
}

INSTANTIATE_TEST_SUITE_P(Goldens, MigrateCache,
                         ::testing::Values(sampleIntoCacheDit(), multiOpGeneric()),
                         [](const ::testing::TestParamInfo<MigrationCase> &Info) {
                           return Info.param.Domain + "_" + Info.param.Profile.substr(0, 5);
                         });

/// The sample's entry file starts with the run of c10 includes its TUs
/// share: with a cache, its signature parse uses the analysis' preamble, and
/// the generated glue (schemas, fakes) is the golden's, as without it.
TEST(MigrateCacheSignatures, TheSignatureParseUsesTheAnalysisPreamble) {
  MigrationCase C = sampleIntoCacheDit();
  MigrationSandbox With(C), Without(C);
  auto [Preamble, Stats] = migrate(C, With, {"--cache-dir", makeTempDir()});
  EXPECT_EQ(Stats["signatures"]["parses_run"], 1) << Stats.dump(1);
  EXPECT_EQ(Stats["signatures"]["parses_with_preamble"], 1) << Stats.dump(1);
  EXPECT_EQ(describeTreeDifference(snapshotTree(goldenDir(C)), Preamble), "");
  auto [Plain, PlainStats] = migrate(C, Without, {"--cache-dir", makeTempDir(), "--no-preamble"});
  EXPECT_EQ(PlainStats["signatures"]["parses_with_preamble"], 0) << PlainStats.dump(1);
  EXPECT_EQ(describeTreeDifference(Plain, Preamble), "");
  // Why the rewrite's parses ran as many at once as they did (-v prints it).
  EXPECT_FALSE(Stats["rewrite"]["concurrency"].empty()) << Stats.dump(1);
}

/// preamble_runs' two scale TUs start with the same external includes (the
/// stand-in torch and a third-party header): its kernel-level entry ported
/// without an op.
MigrationCase preambleRuns() {
  return {"preamble_runs",
          "tests/fixtures/upstream/preamble_runs",
          {"pr::scale"},
          "tests/fixtures/targets/generic_like",
          "generic",
          "pr",
          {"--no-register", "pr::scale"}};
}

/// `preambleRuns()` migrated, with the stand-in and third-party headers.
std::pair<Tree, nlohmann::json> migratePreambleRuns(const MigrationSandbox &Box,
                                                    const std::vector<std::string> &Options,
                                                    const std::vector<std::string> &Env = {}) {
  std::vector<std::string> Extra = Options;
  Extra.insert(Extra.end(), {"--no-compile-check", "--", "-isystem", stubArgs().back(), "-isystem",
                             Box.Source + "/third_party/widelib"});
  Tree Before = snapshotTree(Box.Target);
  std::vector<std::string> Args =
      migrateArgs(preambleRuns(), Box, {}, /*Stubs=*/false, /*CompileCheck=*/true);
  Args.insert(Args.end(), {"--format", "json"});
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  ToolResult Run = runOpmig(Args, Env);
  EXPECT_EQ(Run.ExitCode, 0) << Run.Stdout << Run.Stderr;
  nlohmann::json Report = Run.json();
  EXPECT_EQ(Report["outcome"], "written") << Run.Stdout;
  return {treeChanges(Before, snapshotTree(Box.Target)), Report["stats"]};
}

/// The rewrite's parses of the TUs that start with the shared run use the
/// preamble the analysis built (from the cache, not built again), and are
/// cached like the others.
TEST(MigrateCachePreamble, RewriteParsesReuseTheAnalysisPreamble) {
  std::string Cache = makeTempDir();
  MigrationSandbox First(preambleRuns());
  auto [Cold, Stats] = migratePreambleRuns(First, {"--cache-dir", Cache});
  EXPECT_EQ(Stats["analysis"]["parses_with_preamble"], 4) << Stats.dump(1);
  EXPECT_EQ(Stats["rewrite"]["parses_with_preamble"], 4) << Stats.dump(1);
  ASSERT_EQ(Stats["rewrite"]["preambles"].size(), 2u) << Stats.dump(1);
  for (const nlohmann::json &Note : Stats["rewrite"]["preambles"])
    EXPECT_NE(Note.get<std::string>().find("from the cache"), std::string::npos) << Stats.dump(1);

  MigrationSandbox Second(preambleRuns());
  Second.Source = First.Source;
  auto [Warm, WarmStats] = migratePreambleRuns(Second, {"--cache-dir", Cache});
  EXPECT_EQ(WarmStats["rewrite"]["parses_run"], 0) << WarmStats.dump(1);
  EXPECT_EQ(describeTreeDifference(Cold, Warm), "");

  // Without the preamble: the same tree.
  MigrationSandbox Plain(preambleRuns());
  auto [Without, PlainStats] = migratePreambleRuns(Plain, {"--no-cache", "--no-preamble"});
  EXPECT_EQ(PlainStats["rewrite"]["parses_with_preamble"], 0) << PlainStats.dump(1);
  EXPECT_EQ(describeTreeDifference(Without, Cold), "");
}

/// The pinned torch, where the preamble matters: preamble_runs' scale TUs
/// start with <torch/all.h> and <ATen/cuda/CUDAContext.h>. Analysed with the
/// preamble and without it, the facts are the same, byte for byte but the
/// stats; migrated on each side, the rewrite's parses with the preamble (and
/// without it) write the same tree. Each side keeps a cache of its own, so
/// the migration reads the facts that side's analysis found instead of
/// parsing torch again: one plain parse of each TU, one with the preamble.
TEST(MigrateCachePreamble, RealTorchFactsAndTreeEqualThoseOfPlainParses) {
  struct stat Info;
  if (stat((pinnedTorchDir() + "/torch/version.py").c_str(), &Info) != 0)
    GTEST_SKIP() << "no torch " << OPMIG_TORCH_VERSION << " in " << pinnedTorchDir()
                 << ": run scripts/install-deps.sh (it pip-installs the pinned torch)";
  std::vector<std::string> Torch = {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + pinnedTorchDir()};
  MigrationSandbox With(preambleRuns()), Plain(preambleRuns());
  // scale_wide.cu, whose macro keeps it from the preamble, parses the same
  // way on both sides (Preamble.OnlyTUsStartingWithTheSharedRunUseIt shows
  // it with the stand-ins): here it would only add plain parses of torch.
  for (const MigrationSandbox *Box : {&With, &Plain})
    ASSERT_EQ(std::remove((Box->Source + "/csrc/scale_wide.cu").c_str()), 0);
  std::string WithCache = makeTempDir(), PlainCache = makeTempDir();
  auto analyze = [&](const MigrationSandbox &Box, const std::string &Cache, bool Preamble) {
    std::vector<std::string> Args = {"analyze",  "--source", Box.Source,    "--entry", "pr::scale",
                                     "--format", "json",     "--cache-dir", Cache};
    if (!Preamble)
      Args.push_back("--no-preamble");
    Args.insert(Args.end(), {"--", "-isystem", Box.Source + "/third_party/widelib"});
    ToolResult Result = runOpmig(Args, Torch);
    EXPECT_EQ(Result.ExitCode, 0) << Result.Stderr;
    return Result.json();
  };
  nlohmann::json Facts = analyze(With, WithCache, true);
  nlohmann::json PlainFacts = analyze(Plain, PlainCache, false);
  EXPECT_EQ(Facts["stats"]["parses_with_preamble"], 4) << Facts["stats"].dump(1);
  EXPECT_EQ(PlainFacts["stats"]["parses_with_preamble"], 0) << PlainFacts["stats"].dump(1);
  EXPECT_EQ(Facts["partial"], false) << Facts["partial_reasons"].dump(1);
  EXPECT_EQ(Facts["stats"]["parses_run"], PlainFacts["stats"]["parses_run"]);
  for (nlohmann::json *Doc : {&Facts, &PlainFacts}) {
    Doc->erase("stats");
    // Each names its own sandbox.
    std::string Text = Doc->dump(1);
    const std::string &Root = Doc == &Facts ? With.Source : Plain.Source;
    for (size_t At = Text.find(Root); At != std::string::npos; At = Text.find(Root, At))
      Text.replace(At, Root.size(), "<source>");
    *Doc = nlohmann::json::parse(Text);
  }
  EXPECT_EQ(Facts.dump(1), PlainFacts.dump(1));

  auto migrate = [&](const MigrationSandbox &Box, const std::string &Cache, bool Preamble) {
    Tree Before = snapshotTree(Box.Target);
    std::vector<std::string> Args =
        migrateArgs(preambleRuns(), Box, {"--format", "json", "--cache-dir", Cache},
                    /*Stubs=*/false);
    if (!Preamble)
      Args.push_back("--no-preamble");
    Args.insert(Args.end(), {"--", "-isystem", Box.Source + "/third_party/widelib"});
    ToolResult Run = runOpmig(Args, Torch);
    EXPECT_EQ(Run.ExitCode, 0) << Run.Stdout << Run.Stderr;
    nlohmann::json Stats = Run.json()["stats"];
    EXPECT_EQ(Stats["analysis"]["parses_run"], 0)
        << "the analysis above is cached; " << Stats.dump(1);
    return std::pair{treeChanges(Before, snapshotTree(Box.Target)), Stats};
  };
  auto [Written, Stats] = migrate(With, WithCache, true);
  auto [PlainWritten, PlainStats] = migrate(Plain, PlainCache, false);
  EXPECT_GT(Stats["rewrite"]["parses_with_preamble"].get<unsigned>(), 0u) << Stats.dump(1);
  EXPECT_EQ(PlainStats["rewrite"]["parses_with_preamble"], 0) << PlainStats.dump(1);
  EXPECT_EQ(describeTreeDifference(PlainWritten, Written), "");
}

} // namespace
} // namespace opmig::test
