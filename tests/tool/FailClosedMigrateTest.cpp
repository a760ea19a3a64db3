//===- FailClosedMigrateTest.cpp - migrate fails closed (issue 10) --------===//
//
// Every case of "fail closed" for `opmig migrate`: a staging folder or a
// journal that opmig did not make is never trusted, a dry run never
// recovers and writes nothing (the whole folder around the target is
// compared, names, modes and contents), a signal after the last move does
// not undo a finished migration, a fault at each step of the commit leaves
// the target untouched or fully migrated, values that become source text are
// checked, and a second migration of one target is refused.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <array>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

std::string sha256Of(const std::string &Path) {
  std::string Command = "sha256sum '" + Path + "'";
  FILE *Pipe = popen(Command.c_str(), "r");
  std::array<char, 65> Hex{};
  if (!Pipe || !std::fgets(Hex.data(), Hex.size(), Pipe))
    ADD_FAILURE() << "cannot run " << Command;
  if (Pipe)
    pclose(Pipe);
  return std::string(Hex.data());
}

/// `Args` with the value after `Name` replaced by `Value`.
std::vector<std::string> withValue(std::vector<std::string> Args, const std::string &Name,
                                   const std::string &Value) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == Name)
      Args[I + 1] = Value;
  return Args;
}

/// The sample into the cache-dit-like target, with the target placed in a
/// folder of its own next to `outside/`, so that a listing of that folder
/// catches any write outside the target as well as inside it.
class FailClosedMigrateTest : public ::testing::Test {
protected:
  void SetUp() override {
    Parent = makeTempDir();
    fs::rename(Box.Target, Parent + "/target");
    Box.Target = Parent + "/target";
    writeFile(Parent + "/outside/keep.txt", "not opmig's\n");
  }

  std::vector<std::string> args(const std::vector<std::string> &Extra = {}) const {
    return migrateArgs(Case, Box, Extra);
  }
  ToolResult migrate(const std::vector<std::string> &Extra = {},
                     const std::vector<std::string> &Env = {}) const {
    return runOpmig(args(Extra), Env);
  }
  std::string target(const std::string &Rel) const { return Box.Target + "/" + Rel; }
  std::string staging(const std::string &Rel = "") const {
    return target(".opmig-staging") + (Rel.empty() ? "" : "/" + Rel);
  }

  /// A dry run (text and JSON) leaves the target and its parent folder
  /// exactly as they were; returns the text run.
  ToolResult expectDryRunWritesNothing(int ExpectedCode) const {
    std::string Before = fullListing(Parent);
    ToolResult Text = migrate({"--dry-run"});
    EXPECT_EQ(Text.ExitCode, ExpectedCode) << Text.Stdout << Text.Stderr;
    EXPECT_EQ(fullListing(Parent), Before) << "the text dry run wrote something";
    ToolResult Json = migrate({"--dry-run", "--format", "json"});
    EXPECT_EQ(Json.ExitCode, ExpectedCode) << Json.Stdout << Json.Stderr;
    EXPECT_EQ(fullListing(Parent), Before) << "the JSON dry run wrote something";
    return Text;
  }

  MigrationCase Case = sampleIntoCacheDit();
  MigrationSandbox Box{Case};
  std::string Parent;
};

TEST_F(FailClosedMigrateTest, DryRunReportsAnInterruptedMigrationAndRecoversNothing) {
  Tree Pristine = snapshotTree(Box.Target);
  ToolResult Killed = migrate({}, {"OPMIG_TEST_KILL_AFTER_MOVES=3"});
  ASSERT_EQ(Killed.ExitCode, 128 + 9) << Killed.Stderr;
  ASSERT_TRUE(fs::exists(staging("journal.json")));

  ToolResult DryRun = expectDryRunWritesNothing(0);
  EXPECT_TRUE(contains(DryRun.Stdout, "a real run first rolls it back")) << DryRun.Stdout;
  // The first three changes (in path order) create files.
  EXPECT_TRUE(contains(DryRun.Stdout, "  remove    csrc/kernels/attn/")) << DryRun.Stdout;
  EXPECT_TRUE(contains(DryRun.Stdout, "(written by the interrupted run)")) << DryRun.Stdout;
  nlohmann::json Report = migrate({"--dry-run", "--format", "json"}).json();
  EXPECT_EQ(Report["interrupted_run"]["rolled_back"], false) << Report["interrupted_run"];
  EXPECT_EQ(Report["interrupted_run"]["remove"].size(), 3u) << Report["interrupted_run"];
  EXPECT_TRUE(fs::exists(staging("journal.json"))) << "a dry run never recovers";

  // The real run rolls back first and then migrates once.
  ToolResult Real = migrate();
  ASSERT_EQ(Real.ExitCode, 0) << Real.Stdout << Real.Stderr;
  EXPECT_TRUE(contains(Real.Stdout, "rolled back an interrupted migration")) << Real.Stdout;
  EXPECT_FALSE(fs::exists(staging()));
  EXPECT_EQ(migrate({"--dry-run", "--format", "json"}).json()["outcome"], "up-to-date");
  EXPECT_FALSE(treeChanges(Pristine, snapshotTree(Box.Target)).empty());
}

TEST_F(FailClosedMigrateTest, DryRunLeavesALeftoverStagingFolderAlone) {
  ToolResult Killed = migrate({}, {"OPMIG_TEST_KILL_AT=staged"});
  ASSERT_EQ(Killed.ExitCode, 128 + 9) << Killed.Stderr;
  ASSERT_TRUE(fs::is_directory(staging("new")));
  ASSERT_FALSE(fs::exists(staging("journal.json")));
  ToolResult DryRun = expectDryRunWritesNothing(0);
  EXPECT_TRUE(contains(DryRun.Stdout, "only the staging folder is removed")) << DryRun.Stdout;
}

TEST_F(FailClosedMigrateTest, StagingFolderThatIsASymlinkIsNeitherFollowedNorRemoved) {
  fs::create_directory_symlink(Parent + "/outside", staging());
  std::string Before = fullListing(Parent);
  ToolResult DryRun = expectDryRunWritesNothing(2);
  EXPECT_TRUE(contains(DryRun.Stderr, "is not a folder opmig made")) << DryRun.Stderr;
  ToolResult Real = migrate();
  EXPECT_EQ(Real.ExitCode, 2) << Real.Stdout << Real.Stderr;
  EXPECT_EQ(fullListing(Parent), Before);
  EXPECT_EQ(readFile(Parent + "/outside/keep.txt"), "not opmig's\n");
}

TEST_F(FailClosedMigrateTest, StagingFolderThatIsAFileIsKept) {
  writeFile(staging(), "somebody's file\n");
  std::string Before = fullListing(Parent);
  expectDryRunWritesNothing(2);
  EXPECT_EQ(migrate().ExitCode, 2);
  EXPECT_EQ(fullListing(Parent), Before);
}

TEST_F(FailClosedMigrateTest, JournalNamingAPathOutsideTheTargetChangesNothing) {
  // The first change would be valid and would remove setup.py (its content
  // is what the journal says was staged); the second leaves the target. All
  // of it is checked before anything is touched.
  std::string SetupSha = sha256Of(target("setup.py"));
  writeFile(staging("journal.json"),
            R"({"schema": "opmig.journal/1", "created_folders": [], "changes": [
                {"path": "../outside/keep.txt", "had_original": true},
                {"path": "setup.py", "had_original": false, "new_sha256": ")" +
                SetupSha + R"("}]})");
  // Where `backup/` + `../outside/keep.txt` would lead: inside the staging folder.
  writeFile(staging("outside/keep.txt"), "overwritten\n");
  std::string Before = fullListing(Parent);
  ToolResult DryRun = expectDryRunWritesNothing(2);
  EXPECT_TRUE(contains(DryRun.Stderr, "is not a plain path inside the target")) << DryRun.Stderr;
  ToolResult Real = migrate();
  EXPECT_EQ(Real.ExitCode, 2) << Real.Stderr;
  EXPECT_TRUE(contains(Real.Stderr, "nothing was changed")) << Real.Stderr;
  EXPECT_EQ(fullListing(Parent), Before);
  EXPECT_TRUE(fs::exists(target("setup.py")));
}

TEST_F(FailClosedMigrateTest, JournalOfAnotherFormatIsNotTrusted) {
  // The shape of an old or forged journal: no schema, no hashes.
  writeFile(staging("journal.json"),
            R"({"changes": [{"path": "setup.py", "had_original": false}], "created_folders": []})");
  std::string Before = fullListing(Parent);
  expectDryRunWritesNothing(2);
  ToolResult Real = migrate();
  EXPECT_EQ(Real.ExitCode, 2) << Real.Stderr;
  EXPECT_TRUE(contains(Real.Stderr, "not an opmig.journal/1 journal")) << Real.Stderr;
  EXPECT_EQ(fullListing(Parent), Before);
}

TEST_F(FailClosedMigrateTest, SignalAfterTheLastMoveLeavesAFinishedMigration) {
  ToolResult Signalled = migrate({}, {"OPMIG_TEST_SIGNAL_AT=moved"});
  EXPECT_EQ(Signalled.ExitCode, 128 + 15) << "SIGTERM, delivered once the commit is complete";
  EXPECT_FALSE(fs::exists(staging())) << "the commit finished, journal and staging included";
  Tree Migrated = snapshotTree(Box.Target);
  ToolResult Next = migrate({"--format", "json"});
  ASSERT_EQ(Next.ExitCode, 0) << Next.Stderr;
  EXPECT_EQ(Next.json()["outcome"], "up-to-date");
  EXPECT_EQ(Next.json()["recovered_interrupted_run"], false);
  EXPECT_EQ(describeTreeDifference(Migrated, snapshotTree(Box.Target)), "");
}

TEST_F(FailClosedMigrateTest, KillAfterTheCommitPointIsNotUndone) {
  ToolResult Killed = migrate({}, {"OPMIG_TEST_KILL_AT=committed"});
  EXPECT_EQ(Killed.ExitCode, 128 + 9);
  ASSERT_TRUE(fs::exists(staging())) << "killed before the staging folder was removed";
  Tree Migrated = snapshotTree(Box.Target);
  Migrated.erase(Migrated.lower_bound(".opmig-staging/"), Migrated.lower_bound(".opmig-staging0"));
  ToolResult DryRun = expectDryRunWritesNothing(0);
  EXPECT_TRUE(contains(DryRun.Stdout, "only the staging folder is removed")) << DryRun.Stdout;
  ToolResult Next = migrate({"--format", "json"});
  ASSERT_EQ(Next.ExitCode, 0) << Next.Stderr;
  EXPECT_EQ(Next.json()["outcome"], "up-to-date") << "nothing reverted, nothing to redo";
  EXPECT_FALSE(fs::exists(staging()));
  EXPECT_EQ(describeTreeDifference(Migrated, snapshotTree(Box.Target)), "");
}

TEST_F(FailClosedMigrateTest, FaultAtEachStepLeavesTheTargetUntouchedOrMigrated) {
  Tree Pristine = snapshotTree(Box.Target);
  ASSERT_EQ(migrate().ExitCode, 0);
  Tree Migrated = snapshotTree(Box.Target);
  for (const char *Step : {"staged", "journal", "move:1", "move:5", "moved"}) {
    SCOPED_TRACE(Step);
    writeTree(Box.Target, Pristine);
    fs::remove_all(staging());
    ToolResult Killed = migrate({}, {std::string("OPMIG_TEST_KILL_AT=") + Step});
    EXPECT_EQ(Killed.ExitCode, 128 + 9) << Killed.Stderr;
    Tree Now = snapshotTree(Box.Target);
    Now.erase(Now.lower_bound(".opmig-staging/"), Now.lower_bound(".opmig-staging0"));
    // Half-moved files are rolled back by the next run, not left in place.
    ToolResult Next = migrate();
    ASSERT_EQ(Next.ExitCode, 0) << Next.Stdout << Next.Stderr;
    EXPECT_FALSE(fs::exists(staging()));
    EXPECT_EQ(describeTreeDifference(Migrated, snapshotTree(Box.Target)), "")
        << "the next run neither reverts nor duplicates";
    if (std::string(Step) == "staged" || std::string(Step) == "journal") {
      EXPECT_EQ(describeTreeDifference(Pristine, Now), "") << "nothing had moved yet";
    }
  }
}

TEST_F(FailClosedMigrateTest, SecondMigrationOfOneTargetIsRefusedWhileTheFirstRuns) {
  int Fd = open(Box.Target.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(flock(Fd, LOCK_EX | LOCK_NB), 0);
  Tree Before = snapshotTree(Box.Target);
  ToolResult Second = migrate();
  EXPECT_EQ(Second.ExitCode, 2) << Second.Stdout;
  EXPECT_TRUE(contains(Second.Stderr, "another opmig migrate is running")) << Second.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
  EXPECT_EQ(migrate({"--dry-run"}).ExitCode, 0) << "a dry run takes no lock";
  close(Fd);
  EXPECT_EQ(migrate().ExitCode, 0) << "the lock goes with its holder";
}

TEST_F(FailClosedMigrateTest, ProvenanceWithControlCharactersIsRefused) {
  std::string Before = fullListing(Parent);
  for (const char *Option : {"--upstream-repo", "--upstream-commit"}) {
    ToolResult R = runOpmig(withValue(args(), Option, "x\n#include </etc/passwd>"));
    EXPECT_EQ(R.ExitCode, 2) << Option << ": " << R.Stdout;
    EXPECT_TRUE(
        contains(R.Stderr, "x...' (" + std::string(Option) + "): it holds a control character"))
        << R.Stderr;
  }
  EXPECT_EQ(fullListing(Parent), Before);
}

TEST_F(FailClosedMigrateTest, BytesThatAreNotUtf8StillGiveJson) {
  ToolResult R = runOpmig(
      withValue(args({"--dry-run", "--format", "json"}), "--upstream-repo", "repo-\xff\xfe"));
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  nlohmann::json Report = R.json();
  EXPECT_EQ(Report["upstream"]["repo"], "repo-\xEF\xBF\xBD\xEF\xBF\xBD") << "U+FFFD for each byte";
  ToolResult Written = runOpmig(withValue(args(), "--upstream-repo", "repo-\xff"));
  ASSERT_EQ(Written.ExitCode, 0) << Written.Stderr;
  EXPECT_FALSE(nlohmann::json::parse(readFile(target("csrc/kernels/attn/opmig-manifest.json")),
                                     nullptr, false)
                   .is_discarded());
}

TEST_F(FailClosedMigrateTest, KeywordsAreNoDomainOrNamespace) {
  std::string Before = fullListing(Parent);
  ToolResult Domain = runOpmig(withValue(args(), "--domain", "class"));
  EXPECT_EQ(Domain.ExitCode, 2);
  EXPECT_TRUE(contains(Domain.Stderr, "it is a C++ keyword")) << Domain.Stderr;
  for (const char *Spec : {"sample_ops=cache_dit::class", "sample_ops=namespace"}) {
    ToolResult Rename = migrate({"--rename-namespace", Spec});
    EXPECT_EQ(Rename.ExitCode, 2) << Spec;
    EXPECT_TRUE(contains(Rename.Stderr, "invalid namespace rename '" + std::string(Spec) +
                                            "' (--rename-namespace)"))
        << Rename.Stderr;
  }
  EXPECT_EQ(fullListing(Parent), Before);
}

TEST_F(FailClosedMigrateTest, RenameOfANamespaceTheClosureNeverOpensIsReported) {
  ToolResult R = migrate({"--rename-namespace", "std=foo", "--dry-run"});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, "the closure opens no namespace 'std'")) << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "sample_ops")) << "names the ones it opens: " << R.Stderr;
}

TEST_F(FailClosedMigrateTest, TargetInsideItsSourceIsRefused) {
  fs::create_directories(Box.Source + "/port");
  Box.Target = Box.Source + "/port";
  ToolResult R = migrate();
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, " (--target) is inside the source folder " + Box.Source +
                                     " (--source); migrate into a repository outside"))
      << R.Stderr;
  EXPECT_TRUE(fs::is_empty(Box.Target));
}

TEST_F(FailClosedMigrateTest, ManifestPathsLeavingTheTargetAreRejectedOnRead) {
  ASSERT_EQ(migrate().ExitCode, 0);
  std::string ManifestPath = target("csrc/kernels/attn/opmig-manifest.json");
  nlohmann::json Manifest = nlohmann::json::parse(readFile(ManifestPath));
  for (const std::string &Bad :
       {std::string("../../../../outside/keep.txt"), std::string("/etc/passwd"),
        std::string("csrc/kernels/attn/ops.h\0.bak", 28)}) {
    SCOPED_TRACE(Bad);
    nlohmann::json Edited = Manifest;
    Edited["files"][0]["target_path"] = Bad;
    writeFile(ManifestPath, Edited.dump(2));
    std::string Before = fullListing(Parent);
    ToolResult R = migrate({"--dry-run"});
    EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
    EXPECT_TRUE(contains(R.Stderr, "is not a relative path inside its tree")) << R.Stderr;
    EXPECT_FALSE(contains(R.Stdout, "not opmig's")) << "the outside file is never shown";
    EXPECT_EQ(migrate().ExitCode, 2);
    EXPECT_EQ(fullListing(Parent), Before);
    ToolResult Review = runOpmig({"review", "--target", Box.Target, "--domain", "attn"});
    EXPECT_EQ(Review.ExitCode, 2) << Review.Stdout;
  }
}

TEST(FailClosedAnalyzeTest, InvalidGpuArchIsAnInputError) {
  for (const char *Arch : {"sm_xx", "90", "sm_9", "compute_90", "sm_90;rm"}) {
    ToolResult R = runOpmig(
        {"analyze", "--source", "samples/upstream", "--entry", "rms_norm", "--gpu-arch", Arch});
    EXPECT_EQ(R.ExitCode, 2) << Arch;
    EXPECT_TRUE(contains(R.Stderr, "invalid GPU architecture '" + std::string(Arch) +
                                       "' (--gpu-arch); name an NVIDIA architecture"))
        << R.Stderr;
  }
}

TEST(FailClosedAnalyzeTest, EmptyEntryIsRejectedPlainly) {
  for (const char *Entry : {"", "  ", "::"}) {
    ToolResult R = runOpmig({"analyze", "--source", "samples/upstream", "--entry", Entry});
    EXPECT_EQ(R.ExitCode, 2) << "'" << Entry << "'";
    EXPECT_TRUE(contains(R.Stderr, "is empty; name a C++ function")) << R.Stderr;
    EXPECT_FALSE(contains(R.Stderr, "nearest names")) << R.Stderr;
  }
}

TEST(FailClosedAnalyzeTest, UnreadableSourceSaysItCannotBeRead) {
  if (geteuid() == 0)
    GTEST_SKIP() << "running as root, which reads any folder: no unreadable --source to try";
  std::string Source = makeTempDir() + "/src";
  writeFile(Source + "/a.cu", "void f() {}\n");
  fs::permissions(Source, fs::perms::none);
  ToolResult R = runOpmig({"analyze", "--source", Source, "--entry", "f"});
  fs::permissions(Source, fs::perms::owner_all);
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_TRUE(contains(R.Stderr, "cannot be read")) << R.Stderr;
  EXPECT_FALSE(contains(R.Stderr, "holds no translation unit")) << R.Stderr;
}

TEST(FailClosedAnalyzeTest, FileNameThatIsNotUtf8ReachesJsonAndTheCache) {
  std::string Source = makeTempDir() + "/src";
  std::string Header = "k\xff\xfe.h";
  writeFile(Source + "/" + Header, "inline int twice(int x) { return 2 * x; }\n");
  writeFile(Source + "/a.cpp", "#include \"" + Header + "\"\nint f(int x) { return twice(x); }\n");
  std::string Cache = makeTempDir();
  for (const char *Format : {"text", "json"}) {
    ToolResult R = runOpmig(
        {"analyze", "--source", Source, "--entry", "f", "--cache-dir", Cache, "--format", Format});
    ASSERT_EQ(R.ExitCode, 0) << Format << ": " << R.Stderr;
    if (std::string(Format) == "json") {
      EXPECT_TRUE(contains(R.json()["files"].dump(), "k\xEF\xBF\xBD\xEF\xBF\xBD.h")) << R.Stdout;
    }
  }
  for (const fs::directory_entry &E : fs::recursive_directory_iterator(Cache))
    EXPECT_FALSE(contains(E.path().filename().string(), ".tmp-")) << E.path();
  EXPECT_FALSE(fs::is_empty(Cache)) << "the entry itself was written";
}

TEST(FailClosedAnalyzeTest, DeepCompileDatabaseIsAnInputError) {
  std::string Build = makeTempDir();
  writeFile(Build + "/compile_commands.json", std::string(100000, '[') + std::string(100000, ']'));
  ToolResult R = runOpmig({"analyze", "--source", "samples/upstream", "--entry", "rms_norm", "-p",
                           Build, "--no-cache"});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(
      contains(R.Stderr, "compile_commands.json (--build-dir): nested deeper than 64 levels"))
      << R.Stderr;
}

TEST_F(FailClosedMigrateTest, DeepProfileIsAnInputErrorNamingTheFile) {
  std::string Profile = makeTempDir() + "/profile.json";
  writeFile(Profile, "{\"name\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  std::string Before = fullListing(Parent);
  ToolResult R = runOpmig(withValue(args(), "--profile", Profile));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, Profile + ":1: nested deeper than 64 levels")) << R.Stderr;
  EXPECT_EQ(fullListing(Parent), Before);
}

} // namespace
} // namespace opmig::test
