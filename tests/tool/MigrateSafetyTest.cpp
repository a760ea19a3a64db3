// What `opmig migrate` promises about the target: dry runs and blocked runs
// write nothing, hand edits are not overwritten without --force, a killed
// run is rolled back, bad input leaves everything as it was, and nothing is
// ever written outside --target.

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string &Text, const std::string &Part) {
  return Text.find(Part) != std::string::npos;
}

class MigrateSafetyTest : public ::testing::Test {
protected:
  MigrationCase Case = sampleIntoCacheDit();
  MigrationSandbox Box{Case};

  ToolResult migrate(const std::vector<std::string> &Extra = {},
                     const std::vector<std::string> &Env = {}) {
    return runOpmig(migrateArgs(Case, Box, Extra), Env);
  }
  std::string target(const std::string &Rel) const { return Box.Target + "/" + Rel; }
};

TEST_F(MigrateSafetyTest, DryRunPrintsTheDiffAndWritesNothing) {
  Tree Before = snapshotTree(Box.Target);
  ToolResult R = migrate({"--dry-run"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_TRUE(contains(R.Stdout, "--- /dev/null\n+++ b/csrc/kernels/attn/attn.cpp\n")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "--- a/src/cache_dit/kernels/__init__.py\n")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "dry run: nothing written")) << R.Stdout;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
}

TEST_F(MigrateSafetyTest, MigratedFilesStartWithTheirProvenance) {
  ASSERT_EQ(migrate().ExitCode, 0);
  std::string Migrated = readFile(target("csrc/kernels/attn/attention/merge_attn_states.cu"));
  EXPECT_EQ(Migrated.substr(0, Migrated.find('\n')),
            "// Migrated by opmig from example.org/sample_cache_dit at "
            "0123456789abcdef0123456789abcdef01234567: csrc/attention/merge_attn_states.cu");
  nlohmann::json Manifest =
      nlohmann::json::parse(readFile(target("csrc/kernels/attn/opmig-manifest.json")));
  EXPECT_EQ(Manifest["upstream"]["commit"], "0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(Manifest["upstream"]["dirty"], false);
  EXPECT_FALSE(fs::exists(target("csrc/kernels/attn/torch_bindings.cpp")))
      << "the upstream registration is regenerated, not copied";
}

/// `git -C Dir <Args>` as a test user; its exit status.
int git(const std::string &Dir, const std::string &Args) {
  return std::system(("git -C '" + Dir + "' -c user.name=opmig -c user.email=opmig@example.org " +
                      Args + " >/dev/null 2>&1")
                         .c_str());
}

/// Without --upstream-repo and --upstream-commit the manifest takes them
/// from git: a committed tree's own commit, clean; a tree unpacked into an
/// ignored folder of another repository is unversioned, not that
/// repository's commit.
TEST_F(MigrateSafetyTest, ProvenanceComesFromTheTreesOwnRepository) {
  if (std::system("git --version >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no git here: the provenance probe is not checked";
  std::vector<std::string> Args = migrateArgs(Case, Box);
  for (const char *Flag : {"--upstream-repo", "--upstream-commit"}) {
    auto It = std::find(Args.begin(), Args.end(), Flag);
    Args.erase(It, It + 2); // the flag and its value
  }
  auto UpstreamOf = [&](const std::string &Source) {
    MigrationSandbox Fresh(Case);
    std::vector<std::string> Run = Args;
    *std::find(Run.begin(), Run.end(), Box.Source) = Source;
    *std::find(Run.begin(), Run.end(), Box.Target) = Fresh.Target;
    ToolResult R = runOpmig(Run);
    EXPECT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
    return nlohmann::json::parse(
        readFile(Fresh.Target + "/csrc/kernels/attn/opmig-manifest.json"))["upstream"];
  };

  ASSERT_EQ(git(Box.Source, "init -q"), 0);
  ASSERT_EQ(git(Box.Source, "add -A"), 0);
  ASSERT_EQ(git(Box.Source, "commit -qm upstream"), 0);
  nlohmann::json Committed = UpstreamOf(Box.Source);
  EXPECT_EQ(Committed["commit"].get<std::string>().size(), 40u) << Committed.dump();
  EXPECT_EQ(Committed["dirty"], false) << Committed.dump();

  std::string Outer = Box.Source + "-outer";
  fs::create_directories(Outer + "/vendor");
  writeFile(Outer + "/.gitignore", "vendor/\n");
  ASSERT_EQ(git(Outer, "init -q"), 0);
  ASSERT_EQ(git(Outer, "add -A"), 0);
  ASSERT_EQ(git(Outer, "commit -qm outer"), 0);
  fs::copy(Box.Source, Outer + "/vendor/upstream", fs::copy_options::recursive);
  fs::remove_all(Outer + "/vendor/upstream/.git");
  nlohmann::json Ignored = UpstreamOf(Outer + "/vendor/upstream");
  EXPECT_EQ(Ignored["commit"], "unversioned") << Ignored.dump();
  EXPECT_EQ(Ignored["dirty"], true) << Ignored.dump();
  fs::remove_all(Outer);
}

TEST_F(MigrateSafetyTest, EditedTargetFilesKeepTheirMode) {
  fs::permissions(target("setup.py"), fs::perms(0755));
  std::string Before = readFile(target("setup.py"));
  ASSERT_EQ(migrate().ExitCode, 0);
  ASSERT_NE(readFile(target("setup.py")), Before) << "the migration edits setup.py";
  EXPECT_EQ(fs::status(target("setup.py")).permissions(), fs::perms(0755));
}

TEST_F(MigrateSafetyTest, HandEditedFileIsNamedAndKeptUnlessForced) {
  ASSERT_EQ(migrate().ExitCode, 0);
  std::string Edited = target("csrc/kernels/attn/common/checks.h");
  writeFile(Edited, readFile(Edited) + "// local fix\n");
  // Upstream changes too, so the re-run has something to write there.
  writeFile(Box.Source + "/csrc/common/checks.h",
            readFile(Box.Source + "/csrc/common/checks.h") + "// upstream fix\n");
  Tree Before = snapshotTree(Box.Target);

  ToolResult Blocked = migrate();
  EXPECT_EQ(Blocked.ExitCode, 1);
  EXPECT_TRUE(contains(Blocked.Stdout, "csrc/kernels/attn/common/checks.h")) << Blocked.Stdout;
  EXPECT_TRUE(contains(Blocked.Stdout, "CONFLICT: edited since the last migration"))
      << Blocked.Stdout;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");

  ToolResult Forced = migrate({"--force"});
  ASSERT_EQ(Forced.ExitCode, 0) << Forced.Stdout << Forced.Stderr;
  std::string Now = readFile(Edited);
  EXPECT_FALSE(contains(Now, "// local fix"));
  EXPECT_TRUE(contains(Now, "// upstream fix"));
}

TEST_F(MigrateSafetyTest, HandEditedBlockInATargetFileIsProtected) {
  ASSERT_EQ(migrate().ExitCode, 0);
  std::string Init = target("src/cache_dit/kernels/__init__.py");
  std::string Text = readFile(Init);
  size_t Import = Text.find("from ._attn import merge_attn_states");
  ASSERT_NE(Import, std::string::npos) << Text;
  Text.insert(Import, "from ._attn import attn_extension_is_available\n");
  writeFile(Init, Text);
  // A change in the generated block: a second entry.
  Case.Entries.push_back("rms_norm");
  ToolResult R = migrate();
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stdout, "edited since the last migration")) << R.Stdout;
  EXPECT_EQ(readFile(Init), Text);
}

TEST_F(MigrateSafetyTest, UpstreamChangeIsResyncedWithoutConflict) {
  ASSERT_EQ(migrate().ExitCode, 0);
  std::string Up = Box.Source + "/csrc/attention/merge_attn_states.cu";
  writeFile(Up, readFile(Up) + "// upstream follow-up\n");
  ToolResult R = migrate({"--format", "json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  nlohmann::json Report = R.json();
  EXPECT_EQ(Report["outcome"], "written");
  size_t Updated = 0;
  for (const nlohmann::json &Change : Report["changes"])
    if (Change["action"] == "update")
      ++Updated;
  EXPECT_EQ(Updated, 2u) << "the file and the manifest: " << Report["changes"].dump(1);
  EXPECT_TRUE(contains(readFile(target("csrc/kernels/attn/attention/merge_attn_states.cu")),
                       "// upstream follow-up"));
}

TEST_F(MigrateSafetyTest, FilesTheClosureNoLongerNeedsAreRemoved) {
  Case.Entries = {"merge_attn_states", "rms_norm"};
  ASSERT_EQ(migrate().ExitCode, 0);
  ASSERT_TRUE(fs::exists(target("csrc/kernels/attn/norm/rms_norm.cu")));
  Case.Entries = {"merge_attn_states"};
  ToolResult R = migrate();
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  EXPECT_FALSE(fs::exists(target("csrc/kernels/attn/norm/rms_norm.cu")));
  EXPECT_FALSE(fs::exists(target("csrc/kernels/attn/common/reduce.cuh")));
  EXPECT_TRUE(contains(R.Stdout, "remove")) << R.Stdout;
}

TEST_F(MigrateSafetyTest, KilledRunIsRolledBackByTheNextRun) {
  Tree Before = snapshotTree(Box.Target);
  ToolResult Killed = migrate({}, {"OPMIG_TEST_KILL_AFTER_MOVES=3"});
  EXPECT_EQ(Killed.ExitCode, 128 + 9) << Killed.Stdout << Killed.Stderr;
  EXPECT_TRUE(fs::exists(target(".opmig-staging/journal.json")));

  // A dry run only says what a real run would undo (FailClosedMigrateTest
  // proves it writes nothing); the real run rolls back, then migrates.
  Tree HalfDone = snapshotTree(Box.Target);
  ToolResult DryRun = migrate({"--dry-run"});
  ASSERT_EQ(DryRun.ExitCode, 0) << DryRun.Stderr;
  EXPECT_TRUE(contains(DryRun.Stdout, "a real run first rolls it back")) << DryRun.Stdout;
  EXPECT_EQ(describeTreeDifference(HalfDone, snapshotTree(Box.Target)), "");

  ToolResult Real = migrate();
  ASSERT_EQ(Real.ExitCode, 0) << Real.Stderr;
  EXPECT_TRUE(contains(Real.Stdout, "rolled back an interrupted migration")) << Real.Stdout;
  EXPECT_FALSE(fs::exists(target(".opmig-staging")));
  EXPECT_NE(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
}

TEST_F(MigrateSafetyTest, BadDomainsAreRejectedBeforeAnythingIsWritten) {
  Tree Before = snapshotTree(Box.Target);
  for (const char *Domain : {"../evil", "Attn", "/abs", "a b", ""}) {
    Case.Domain = Domain;
    ToolResult R = migrate();
    EXPECT_EQ(R.ExitCode, 2) << Domain;
    EXPECT_TRUE(contains(R.Stderr, "invalid domain name '" + std::string(Domain) + "' (--domain)"))
        << Domain << ": " << R.Stderr;
  }
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
}

TEST_F(MigrateSafetyTest, SymlinkLeadingOutOfTheTargetIsRefused) {
  std::string Outside = makeTempDir();
  fs::remove_all(target("csrc/kernels"));
  fs::create_directory_symlink(Outside, target("csrc/kernels"));
  ToolResult R = migrate();
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "is a symbolic link")) << R.Stderr;
  EXPECT_TRUE(fs::is_empty(Outside));
}

TEST_F(MigrateSafetyTest, BadInputsExitTwoWithAMessage) {
  struct BadInput {
    std::vector<std::string> Extra;
    std::string Message;
  };
  Tree Before = snapshotTree(Box.Target);
  MigrationCase UnknownProfile = Case;
  UnknownProfile.Profile = "kokkos";
  ToolResult Unknown = runOpmig(migrateArgs(UnknownProfile, Box));
  EXPECT_EQ(Unknown.ExitCode, 2) << Unknown.Stdout << Unknown.Stderr;
  EXPECT_TRUE(contains(Unknown.Stderr, "cache-dit, generic, veomni")) << Unknown.Stderr;
  for (const BadInput &Bad :
       std::vector<BadInput>{{{"--rename-namespace", "sample_ops"},
                              "invalid namespace rename 'sample_ops' (--rename-namespace)"},
                             {{"--rename-namespace", "a=b-c"},
                              "invalid namespace rename 'a=b-c' (--rename-namespace)"}}) {
    ToolResult R = migrate(Bad.Extra);
    EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
    EXPECT_TRUE(contains(R.Stderr, Bad.Message)) << R.Stderr;
  }
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
  Case.Target = "tests/fixtures/targets/generic_like";
  MigrationSandbox Generic(Case);
  ToolResult Wrong = runOpmig(migrateArgs(Case, Generic));
  EXPECT_EQ(Wrong.ExitCode, 2);
  EXPECT_TRUE(contains(Wrong.Stderr, "does not follow the cache-dit convention")) << Wrong.Stderr;

  Box.Target = "/nonexistent/target";
  ToolResult Missing = migrate();
  EXPECT_EQ(Missing.ExitCode, 2);
  EXPECT_TRUE(contains(Missing.Stderr, "is not a directory")) << Missing.Stderr;
}

TEST_F(MigrateSafetyTest, ConventionGapsComeAllAtOnceBeforeTheAnalysis) {
  MigrationCase Partial = Case;
  Partial.Target = "tests/fixtures/targets/cache_dit_partial";
  MigrationSandbox PartialBox(Partial);
  // No upstream at all: the gaps are found before anything is analyzed.
  PartialBox.Source = PartialBox.Target + "-no-such-upstream";
  Tree Before = snapshotTree(PartialBox.Target);
  ToolResult R = runOpmig(migrateArgs(Partial, PartialBox));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  for (const char *Gap :
       {"does not follow the cache-dit convention (4 gaps):",
        "\n  tests/kernels/test_ops_dispatch.py is missing; bootstrapping (--bootstrap) creates "
        "it\n",
        "\n  tools/inspect_release_wheel.py is missing; bootstrapping (--bootstrap) creates it\n",
        "\n  src/cache_dit/kernels/__init__.py: anchor 'python:list:__all__' not found",
        "\n  setup.py: anchor 'python:collection:_get_*_extension' or "
        "'python:function-list:_get_ext_modules' not found",
        "\nbootstrapping (--bootstrap) the target creates all of them; a dry run (--dry-run) "
        "shows what it writes"})
    EXPECT_TRUE(contains(R.Stderr, Gap)) << Gap << "\n" << R.Stderr;
  EXPECT_FALSE(contains(R.Stderr, "no-such-upstream")) << R.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(PartialBox.Target)), "");
}

/// VeOmni's architecture note is where the op folder gets listed: a target
/// without one is told so, and --bootstrap writes a module map to list it in.
TEST_F(MigrateSafetyTest, AVeomniTargetWithoutItsArchitectureNoteIsToldOrBootstrapped) {
  MigrationCase Veomni{"sample_veomni", "samples/upstream",
                       {"rms_norm"},    "tests/fixtures/targets/veomni_like",
                       "veomni",        "cuda_rms_norm"};
  MigrationSandbox VeomniBox(Veomni);
  fs::remove_all(VeomniBox.Target + "/.agents");
  Tree Before = snapshotTree(VeomniBox.Target);
  ToolResult Refused = runOpmig(migrateArgs(Veomni, VeomniBox));
  EXPECT_EQ(Refused.ExitCode, 2) << Refused.Stdout << Refused.Stderr;
  EXPECT_TRUE(contains(Refused.Stderr, "\n  .agents/knowledge/architecture.md is missing; "
                                       "bootstrapping (--bootstrap) creates it\n"))
      << Refused.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(VeomniBox.Target)), "");

  ToolResult Bootstrapped = runOpmig(migrateArgs(Veomni, VeomniBox, {"--bootstrap"}));
  ASSERT_EQ(Bootstrapped.ExitCode, 0) << Bootstrapped.Stdout << Bootstrapped.Stderr;
  EXPECT_TRUE(contains(readFile(VeomniBox.Target + "/.agents/knowledge/architecture.md"),
                       "veomni/\n"
                       "└── ops/                Optimized kernels and dispatch\n"
                       "    └── cuda_rms_norm/  CUDA kernels of `rms_norm`, migrated from "
                       "example.org/sample_veomni (JIT-built) <!-- opmig "
                       "cuda_rms_norm:architecture-tree -->\n"));
}

/// A VeOmni repository that has little more than its package, in three
/// shapes: --bootstrap completes each (the files the convention names, and
/// the registration functions `veomni/ops/__init__.py` lacks, next to what it
/// already holds), leaving valid Python; without it, every gap is named.
TEST_F(MigrateSafetyTest, ABareVeomniRepositoryIsBootstrappedWhole) {
  struct Shape {
    std::string Name;
    std::map<std::string, std::string> Files; ///< Written after the package is emptied.
    std::vector<std::string> OpsInitHas;      ///< Text the bootstrapped ops/__init__.py keeps.
  };
  const std::vector<Shape> Shapes = {
      {"no ops package", {{"veomni/__init__.py", ""}}, {}},
      {"an empty ops package", {{"veomni/__init__.py", ""}, {"veomni/ops/__init__.py", ""}}, {}},
      {"ops registered in a tuple, no patch functions",
       {{"veomni/__init__.py", ""},
        {"veomni/ops/__init__.py", "import os\n\n__all__ = (\n    \"existing_op\",\n)\n"},
        {"veomni/utils/import_utils.py", "def is_torch_npu_available():\n    return False\n"}},
       {"import os\n", "__all__ = (\n    \"existing_op\",\n"}}};
  for (const Shape &S : Shapes) {
    SCOPED_TRACE(S.Name);
    MigrationCase Veomni{"bare_veomni", "samples/upstream",
                         {"rms_norm"},  "tests/fixtures/targets/veomni_like",
                         "veomni",      "cuda_rms_norm"};
    MigrationSandbox Box(Veomni);
    fs::remove_all(Box.Target);
    for (const auto &[Path, Text] : S.Files)
      writeFile(Box.Target + "/" + Path, Text);
    ToolResult Told = runOpmig(migrateArgs(Veomni, Box));
    EXPECT_EQ(Told.ExitCode, 2) << Told.Stdout << Told.Stderr;
    EXPECT_TRUE(contains(Told.Stderr, "docs/design/kernel_selection.md is missing; bootstrapping "
                                      "(--bootstrap) creates it"))
        << Told.Stderr;

    ToolResult Done = runOpmig(migrateArgs(Veomni, Box, {"--bootstrap"}));
    ASSERT_EQ(Done.ExitCode, 0) << Done.Stdout << Done.Stderr;
    std::string OpsInit = readFile(Box.Target + "/veomni/ops/__init__.py");
    for (const std::string &Kept : S.OpsInitHas)
      EXPECT_TRUE(contains(OpsInit, Kept)) << OpsInit;
    for (const char *Registered :
         {"from . import cuda_rms_norm\n", "    \"rms_norm\",\n", "def build_ALL_OPS():\n",
          "        (\"_rms_norm\", cuda_rms_norm._rms_norm),\n", "def apply_ops_patch():\n",
          "    cuda_rms_norm.apply_veomni_cuda_rms_norm_patch()\n"})
      EXPECT_TRUE(contains(OpsInit, Registered)) << Registered << "\n" << OpsInit;
    ToolResult Parsed = runProgram({"/usr/bin/env", "python3", "-c",
                                    "import ast, sys; ast.parse(open(sys.argv[1]).read())",
                                    Box.Target + "/veomni/ops/__init__.py"});
    EXPECT_EQ(Parsed.ExitCode, 0) << Parsed.Stderr << OpsInit;
    EXPECT_TRUE(contains(readFile(Box.Target + "/docs/design/kernel_selection.md"),
                         "| `rms_norm` | `cuda_rms_norm/` | import |"));
    EXPECT_TRUE(fs::exists(Box.Target + "/veomni/utils/import_utils.py"));
  }
}

TEST_F(MigrateSafetyTest, KernelLevelEntryNamesItsTorchFacingCaller) {
  MigrationCase Kernel{"kernel_entry",
                       "tests/fixtures/upstream/header_bodies",
                       {"hb::kernels::gemm"},
                       "tests/fixtures/targets/generic_like",
                       "generic",
                       "hb"};
  MigrationSandbox KernelBox(Kernel);
  Tree Before = snapshotTree(KernelBox.Target);
  ToolResult R = runOpmig(migrateArgs(Kernel, KernelBox));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "entry `hb::kernels::gemm`: parameter `out` has type `View`, "
                                 "which an op schema cannot express. It is called by "
                                 "hb::ops::gemm (python/csrc/ops.h:20): if that is the "
                                 "torch-facing function, name it as the entry (--entry) instead; "
                                 "to port this entry without an op (a wrapper of the target "
                                 "calls it), leave hb::kernels::gemm unregistered "
                                 "(--no-register)"))
      << R.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(KernelBox.Target)), "");
}

/// `--no-register` ports a kernel-level entry's closure with no op for it;
/// a torch-facing entry beside it keeps its op. The migration compiles.
TEST_F(MigrateSafetyTest, NoRegisterPortsAKernelLevelEntryWithoutAnOp) {
  MigrationCase Kernel{"kernel_entry",
                       "tests/fixtures/upstream/header_bodies",
                       {"hb::kernels::gemm", "hb::ops::quantize"},
                       "tests/fixtures/targets/generic_like",
                       "generic",
                       "hb",
                       {"--no-register", "hb::kernels::gemm", "--format", "json"}};
  MigrationSandbox KernelBox(Kernel);
  ToolResult R = runOpmig(migrateArgs(Kernel, KernelBox, {}, true, haveNvcc()));
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  nlohmann::json Doc = R.json();
  ASSERT_EQ(Doc["ops"].size(), 1u) << Doc["ops"].dump(2);
  EXPECT_EQ(Doc["ops"][0]["name"], "quantize");
  EXPECT_EQ(Doc["unregistered_entries"], nlohmann::json({"hb::kernels::gemm"}));
  bool PortsGemm = false;
  for (const auto &Change : Doc["changes"])
    PortsGemm = PortsGemm || Change["upstream_path"] == "src/kernels/gemm/gemm.cu";
  EXPECT_TRUE(PortsGemm) << Doc["changes"].dump(2);
  std::string Registration = readFile(KernelBox.Target + "/kernels/hb/hb.cpp");
  EXPECT_TRUE(contains(Registration, "quantize")) << Registration;
  EXPECT_FALSE(contains(Registration, "\"gemm")) << Registration;
  if (haveNvcc()) {
    EXPECT_TRUE(Doc["compile_check"]["ran"].get<bool>());
    EXPECT_FALSE(Doc["compile_check"]["adds_errors"].get<bool>()) << Doc["compile_check"].dump(2);
  }
}

/// With every entry unregistered the domain has no op: the glue of every
/// profile must still be valid (Python that compiles, C++ that nvcc takes).
TEST_F(MigrateSafetyTest, NoRegisterOfEveryEntryLeavesValidGlueInEveryProfile) {
  for (auto [Profile, Target] : {std::pair{"generic", "generic_like"},
                                 {"cache-dit", "cache_dit_like"},
                                 {"veomni", "veomni_like"}}) {
    MigrationCase Case{"no_ops",
                       "tests/fixtures/upstream/header_bodies",
                       {"hb::kernels::gemm"},
                       std::string("tests/fixtures/targets/") + Target,
                       Profile,
                       "hb",
                       {"--no-register", "hb::kernels::gemm"}};
    MigrationSandbox Box(Case);
    Tree Before = snapshotTree(Box.Target);
    ToolResult R = runOpmig(migrateArgs(Case, Box, {}, true, haveNvcc()));
    ASSERT_EQ(R.ExitCode, 0) << Profile << "\n" << R.Stdout << R.Stderr;
    for (const auto &[Path, Content] : snapshotTree(Box.Target)) {
      auto Old = Before.find(Path);
      if (!Path.ends_with(".py") || (Old != Before.end() && Old->second == Content))
        continue;
      std::string Check = "python3 -m py_compile '" + Box.Target + "/" + Path + "'";
      EXPECT_EQ(std::system(Check.c_str()), 0) << Profile << ": " << Path << "\n" << Content;
    }
  }
}

TEST_F(MigrateSafetyTest, NoRegisterOfAnUnknownEntryIsBadInput) {
  MigrationCase Case{"no_register",
                     "samples/upstream",
                     {"merge_attn_states"},
                     "tests/fixtures/targets/generic_like",
                     "generic",
                     "attn",
                     {"--no-register", "rms_norm"}};
  MigrationSandbox Box(Case);
  Tree Before = snapshotTree(Box.Target);
  ToolResult R = runOpmig(migrateArgs(Case, Box));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "the unregistered entry 'rms_norm' (--no-register) is not one "
                                 "of the entries (--entry)"))
      << R.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(Box.Target)), "");
}

TEST_F(MigrateSafetyTest, PartialAnalysisIsRefusedUnlessAllowed) {
  MigrationCase Partial{"partial",        "tests/fixtures/upstream/partial_parse",
                        {"bucketize_op"}, "tests/fixtures/targets/generic_like",
                        "generic",        "bucket"};
  Partial.Options = {"--no-nvcc"}; // Clang alone judges: its errors stand.
  MigrationSandbox PartialBox(Partial);
  Tree Before = snapshotTree(PartialBox.Target);
  ToolResult R = runOpmig(migrateArgs(Partial, PartialBox));
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "Give the tree's compile database (--build-dir) or the Clang "
                                 "flags it needs (after --), or accept a partial closure "
                                 "(--allow-partial)"))
      << R.Stderr;
  EXPECT_EQ(describeTreeDifference(Before, snapshotTree(PartialBox.Target)), "");
}

TEST_F(MigrateSafetyTest, CodeOnlyClangRejectsIsNotRefusedAsPartialWhenNvccCompilesIt) {
  if (!haveNvcc())
    GTEST_SKIP() << "no nvcc here: the nvcc verdict on Clang's errors is not checked";
  MigrationCase Judged{"judged",         "tests/fixtures/upstream/partial_parse",
                       {"bucketize_op"}, "tests/fixtures/targets/generic_like",
                       "generic",        "bucket"};
  MigrationSandbox Box(Judged);
  ToolResult R = runOpmig(migrateArgs(Judged, Box, {"--dry-run"}));
  // The analysis is complete; what stops this entry is its raw-pointer
  // signature, which comes after the partial check.
  EXPECT_FALSE(contains(R.Stderr, "--allow-partial")) << R.Stderr;
  EXPECT_TRUE(contains(R.Stderr, "which an op schema cannot express")) << R.Stderr;
}

TEST(MigrateKernelsTree, RepositoryKernelsAreWhatTheMigrationProduces) {
  std::string Command = std::string("cd '") + OPMIG_SOURCE_DIR + "' && OPMIG='" + OPMIG_BINARY +
                        "' OPMIG_NO_TORCH=1 bash scripts/kernels.sh --check";
  EXPECT_EQ(std::system(Command.c_str()), 0) << "run scripts/kernels.sh and commit kernels/";
}

} // namespace
} // namespace opmig::test
