//===- ValidateTest.cpp - `opmig validate` as a user runs it --------------===//
//
// The command's flags, exit codes and reports on a migrated fixture (the
// template_launch fixture's `axpy`, migrated with the stand-in headers into
// the cache-dit-like target), then the build and import layers for real:
// with the pinned torch and nvcc (they skip and say why without them), one
// heavy build shared by the tests through the build cache, and planted
// faults: a loader that raises at import, a lost instantiation TU (an
// undefined symbol at load), a source that does not compile. Then the
// sample migrated with the generic profile: its generated CMake project
// configured with the CMake on PATH, built and loaded. Last, the sample
// migrated with the veomni profile: the extension its cuda_impl.py would
// JIT-build, built from that load() call's sources and flags, handed to the
// module for the import and api layers.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <unistd.h>

namespace opmig::test {
namespace {

MigrationCase axpyIntoCacheDit() {
  return {"validate_axpy", "tests/fixtures/upstream/template_launch",
          {"axpy"},        "tests/fixtures/targets/cache_dit_like",
          "cache-dit",     "axpy"};
}

/// The sample's two ops into the generic-like target, domain sample_ops.
MigrationCase sampleIntoGeneric() {
  return {"validate_sample_generic",
          "samples/upstream",
          {"merge_attn_states", "rms_norm"},
          "tests/fixtures/targets/generic_like",
          "generic",
          "sample_ops"};
}

/// The sample's rms_norm into the veomni-like target, domain cuda_rms_norm.
MigrationCase sampleIntoVeomni() {
  return {"validate_sample_veomni",
          "samples/upstream",
          {"rms_norm"},
          "tests/fixtures/targets/veomni_like",
          "veomni",
          "cuda_rms_norm"};
}

/// A migration the tests start from, with the Clang arguments it adds after
/// the stand-ins.
struct StartingMigration {
  MigrationCase Case;
  std::vector<std::string> ClangArgs;
};

/// axpy: the real torch demands C++20, which the stand-ins do not say, so
/// the analysis is told. The generic sample is not told: its generated
/// project must ask for it by itself.
std::vector<StartingMigration> startingMigrations() {
  return {
      {axpyIntoCacheDit(), {"-std=c++20"}}, {sampleIntoGeneric(), {}}, {sampleIntoVeomni(), {}}};
}

/// Migrates `M` into a sandbox of its own and returns its target.
std::string migrateInSandbox(const StartingMigration &M) {
  MigrationSandbox Box(M.Case);
  std::vector<std::string> Args = migrateArgs(M.Case, Box);
  Args.insert(Args.end(), M.ClangArgs.begin(), M.ClangArgs.end());
  ToolResult Migrated = runOpmig(Args);
  EXPECT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  return Box.Target;
}

/// Where the ctest fixture `validate_migrations` keeps the starting
/// migrations (OPMIG_TEST_MIGRATIONS, which ctest sets for the tests that
/// require it), or empty.
std::string sharedMigrations() {
  const char *Dir = std::getenv("OPMIG_TEST_MIGRATIONS");
  return Dir ? Dir : "";
}

/// A fresh target migrated as `Name` of startingMigrations() says: a copy of
/// the one the fixture made once for the whole ctest run, or, run outside
/// ctest, migrated here.
std::string migrated(const std::string &Name) {
  if (std::string Shared = sharedMigrations(); !Shared.empty())
    return copyToTemp(Shared + "/" + Name);
  for (const StartingMigration &M : startingMigrations())
    if (M.Case.Name == Name)
      return migrateInSandbox(M);
  ADD_FAILURE() << "no starting migration " << Name;
  return "";
}

std::string migratedTarget() { return migrated(axpyIntoCacheDit().Name); }
std::string migratedGenericTarget() { return migrated(sampleIntoGeneric().Name); }
std::string migratedVeomniTarget() { return migrated(sampleIntoVeomni().Name); }

/// The setup of the ctest fixture `validate_migrations` (tests/CMakeLists.txt
/// runs it alone, before the tests that require it): each starting
/// migration, made once.
TEST(ValidateMigrations, Prepare) {
  std::string Shared = sharedMigrations();
  if (Shared.empty())
    GTEST_SKIP() << "OPMIG_TEST_MIGRATIONS is not set: only ctest's fixture prepares migrations";
  std::filesystem::remove_all(Shared);
  for (const StartingMigration &M : startingMigrations())
    copyTreeInto(migrateInSandbox(M), Shared + "/" + M.Case.Name);
}

ToolResult validate(const std::string &Target, std::vector<std::string> Extra,
                    const std::vector<std::string> &Env = {}, const std::string &Domain = "axpy") {
  std::vector<std::string> Args = {"validate", "--target", Target, "--domain", Domain};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return runOpmig(Args, Env);
}

const nlohmann::json *layer(const nlohmann::json &Doc, const std::string &Name) {
  for (const nlohmann::json &L : Doc["layers"])
    if (L["name"] == Name)
      return &L;
  return nullptr;
}

const nlohmann::json *check(const nlohmann::json &Layer, const std::string &Name) {
  for (const nlohmann::json &C : Layer["checks"])
    if (C["name"] == Name)
      return &C;
  return nullptr;
}

/// Without torch (the tool tests hide it), build and import skip, saying
/// why; the layers of later releases say they are not implemented.
class ValidateWithoutTorch : public ::testing::Test {
protected:
  static void SetUpTestSuite() { Target = new std::string(migratedTarget()); }
  static void TearDownTestSuite() { delete Target; }
  static std::string *Target;
};
std::string *ValidateWithoutTorch::Target = nullptr;

TEST_F(ValidateWithoutTorch, EveryLayerIsListedAndSkipsDoNotFail) {
  ToolResult R = validate(*Target, {"--format", "json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  nlohmann::json Doc = R.json();
  EXPECT_EQ(Doc["schema"], "opmig.validate/1");
  EXPECT_EQ(Doc["profile"], "cache-dit");
  EXPECT_EQ(Doc["passed"], true);
  std::vector<std::string> Names;
  for (const nlohmann::json &L : Doc["layers"]) {
    Names.push_back(L["name"]);
    EXPECT_EQ(L["status"], "skip") << L.dump(2);
  }
  EXPECT_EQ(Names, (std::vector<std::string>{"build", "import", "api", "fake", "smoke", "parity",
                                             "boundary"}));
  EXPECT_NE((*layer(Doc, "build"))["reason"].get<std::string>().find("no torch package"),
            std::string::npos)
      << Doc.dump(2);
  EXPECT_EQ((*layer(Doc, "smoke"))["reason"], "no CUDA device here");
  EXPECT_EQ((*layer(Doc, "api"))["reason"].get<std::string>().rfind("nothing was built: ", 0), 0u)
      << Doc.dump(2);
}

TEST_F(ValidateWithoutTorch, ALayerAskedForByNameThatSkipsFails) {
  ToolResult R = validate(*Target, {"--layers", "build", "--format", "json"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  nlohmann::json Doc = R.json();
  ASSERT_EQ(Doc["layers"].size(), 1u);
  EXPECT_EQ(Doc["layers"][0]["status"], "fail");
  EXPECT_EQ(Doc["findings"][0]["rule"], "build-not-run");
}

TEST_F(ValidateWithoutTorch, RequireGpuFailsTheGpuLayersWithoutAGpu) {
  if (access("/dev/nvidia0", F_OK) == 0)
    GTEST_SKIP() << "this machine has a GPU: --require-gpu has nothing to fail here";
  ToolResult R = validate(*Target, {"--require-gpu", "--format", "json"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stdout << R.Stderr;
  nlohmann::json Doc = R.json();
  for (const char *Name : {"smoke", "parity", "boundary"})
    EXPECT_EQ((*layer(Doc, Name))["status"], "fail") << Name;
  EXPECT_EQ((*layer(Doc, "api"))["status"], "skip");
}

// diff and perf compare with the upstream build: by default only with --source.
TEST_F(ValidateWithoutTorch, SourceAddsTheLayersAgainstTheUpstream) {
  ToolResult R = validate(*Target, {"--source", "/nonexistent/upstream", "--format", "json"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stdout << R.Stderr;
  nlohmann::json Doc = R.json();
  ASSERT_EQ(Doc["layers"].size(), 9u) << Doc.dump(2);
  for (const char *Name : {"diff", "perf"}) {
    const nlohmann::json *L = layer(Doc, Name);
    ASSERT_NE(L, nullptr) << Name;
    EXPECT_EQ((*L)["status"], "skip");
    EXPECT_EQ((*L)["reason"].get<std::string>().rfind("nothing was built: ", 0), 0u) << L->dump();
  }
  ToolResult Asked = validate(*Target, {"--layers", "diff", "--format", "json"});
  EXPECT_EQ(Asked.ExitCode, 1) << Asked.Stdout << Asked.Stderr;
  nlohmann::json Without = Asked.json();
  ASSERT_EQ(Without["layers"].size(), 1u);
  EXPECT_EQ(Without["layers"][0]["status"], "fail");
  EXPECT_NE(Without["layers"][0]["reason"].get<std::string>().find("no upstream tree"),
            std::string::npos)
      << Without.dump(2);
}

TEST_F(ValidateWithoutTorch, JUnitHasASuitePerLayer) {
  ToolResult R = validate(*Target, {"--format", "junit"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.Stdout.rfind("<?xml", 0), 0u);
  EXPECT_NE(
      R.Stdout.find("<testsuite name=\"opmig validate axpy smoke\" tests=\"1\" failures=\"0\" "
                    "errors=\"0\" skipped=\"1\">"),
      std::string::npos)
      << R.Stdout;
}

TEST_F(ValidateWithoutTorch, BadInputsExitWithTwo) {
  struct Case {
    std::vector<std::string> Args;
    std::string Message;
  } Cases[] = {
      {{"--layers", "imports"}, "unknown validation layer 'imports'"},
      {{"--arch", "hopper"}, "'hopper' is no CUDA arch"},
      {{"--profile", "generic"}, "was migrated with profile 'cache-dit'"},
  };
  for (const Case &C : Cases) {
    ToolResult R = validate(*Target, C.Args);
    EXPECT_EQ(R.ExitCode, 2) << C.Args[0] << ": " << R.Stderr;
    EXPECT_NE(R.Stderr.find(C.Message), std::string::npos) << R.Stderr;
  }
  ToolResult NoDomain = runOpmig({"validate", "--target", *Target, "--domain", "nothing_here"});
  EXPECT_EQ(NoDomain.ExitCode, 2);
  EXPECT_NE(NoDomain.Stderr.find("no opmig-manifest.json of domain 'nothing_here'"),
            std::string::npos)
      << NoDomain.Stderr;
  ToolResult NoTarget = runOpmig({"validate", "--target", "/nonexistent", "--domain", "x"});
  EXPECT_EQ(NoTarget.ExitCode, 2);
  EXPECT_NE(NoTarget.Stderr.find("the target '/nonexistent' is not a directory"),
            std::string::npos);
}

// `opmig gate` runs validate on each migrated domain when its config asks:
// a layer that skipped is said with its reason and fails nothing unless the
// config named it, when it fails the gate as validate's own exit would.
TEST_F(ValidateWithoutTorch, TheGateRunsValidateAndSaysWhatSkipped) {
  std::string Config = makeTempDir() + "/gate.yaml";
  writeFile(Config, "checks: [validate]\n");
  ToolResult All = runOpmig({"gate", *Target, "--config", Config});
  EXPECT_EQ(All.ExitCode, 0) << All.Stdout << All.Stderr;
  EXPECT_NE(All.Stdout.find("validate axpy: skip build ("), std::string::npos) << All.Stdout;
  EXPECT_NE(All.Stdout.find("gate: passed"), std::string::npos) << All.Stdout;

  writeFile(Config, "checks: [validate]\nvalidate: {domains: [axpy], layers: [build]}\n");
  ToolResult Named = runOpmig({"gate", *Target, "--config", Config});
  EXPECT_EQ(Named.ExitCode, 1) << Named.Stdout << Named.Stderr;
  EXPECT_NE(Named.Stdout.find("error: domain axpy: layer build did not run"), std::string::npos)
      << Named.Stdout;
  EXPECT_NE(Named.Stdout.find("fix: run opmig validate --target " + *Target +
                              " --domain axpy --layers build"),
            std::string::npos)
      << Named.Stdout;
  EXPECT_NE(Named.Stdout.find("validate axpy: fail build"), std::string::npos) << Named.Stdout;

  writeFile(Config, "checks: [validate]\nvalidate: {domains: [nothing_here]}\n");
  ToolResult NoDomain = runOpmig({"gate", *Target, "--config", Config});
  EXPECT_EQ(NoDomain.ExitCode, 2) << NoDomain.Stdout << NoDomain.Stderr;
  EXPECT_NE(NoDomain.Stderr.find("no opmig-manifest.json of domain 'nothing_here'"),
            std::string::npos)
      << NoDomain.Stderr;
}

/// The build and import layers for real: nvcc, and the pinned torch with
/// its dependencies on PYTHONPATH. Builds go to a cache in the build tree
/// that every test process shares, so the heavy build happens once.
class ValidateWithTorch : public ::testing::Test {
protected:
  void SetUp() override {
    if (access((pinnedTorchDir() + "/torch/version.py").c_str(), F_OK) != 0)
      GTEST_SKIP() << "no torch in " << pinnedTorchDir()
                   << ": run scripts/install-deps.sh (it installs torch with its dependencies)";
    if (!haveNvcc())
      GTEST_SKIP() << "no nvcc here: the build layer cannot run";
  }
  std::vector<std::string> env() const {
    return {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + pinnedTorchDir(),
            "XDG_CACHE_HOME=" + std::string(OPMIG_VALIDATE_CACHE)};
  }
  nlohmann::json run(const std::string &Target, int ExpectedExit,
                     const std::string &Domain = "axpy",
                     const std::string &Layers = "build,import") {
    ToolResult R = validate(Target, {"--layers", Layers, "--format", "json"}, env(), Domain);
    EXPECT_EQ(R.ExitCode, ExpectedExit) << R.Stdout << R.Stderr;
    return R.json();
  }
};

TEST_F(ValidateWithTorch, TheMigratedDomainBuildsImportsAndIsNotRebuilt) {
  std::string Target = migratedTarget();
  nlohmann::json First = run(Target, 0);
  for (const nlohmann::json &L : First["layers"])
    for (const nlohmann::json &C : L["checks"])
      EXPECT_EQ(C["status"], "pass") << C.dump(2);
  nlohmann::json Again = run(Target, 0);
  const nlohmann::json *Link = check(*layer(Again, "build"), "build-link");
  ASSERT_NE(Link, nullptr) << Again.dump(2);
  EXPECT_EQ((*Link)["figures"]["reused"], true) << Link->dump(2);
  EXPECT_EQ((*Link)["figures"]["archs"], "9.0a");
}

TEST_F(ValidateWithTorch, ALoaderThatRaisesAtImportFailsImportOnly) {
  std::string Target = migratedTarget();
  std::string Module = Target + "/src/cache_dit/kernels/_axpy.py";
  writeFile(Module, "import cache_dit._C_axpy  # planted: no fallback\n" + readFile(Module));
  nlohmann::json Doc = run(Target, 1);
  EXPECT_EQ((*layer(Doc, "build"))["status"], "pass") << Doc.dump(2);
  const nlohmann::json *Import = layer(Doc, "import");
  EXPECT_EQ((*Import)["status"], "fail");
  EXPECT_EQ((*check(*Import, "import-without-extension"))["status"], "fail") << Import->dump(2);
  EXPECT_NE((*check(*Import, "import-without-extension"))["reason"].get<std::string>().find(
                "ModuleNotFoundError"),
            std::string::npos);
}

TEST_F(ValidateWithTorch, AClosureMissingAnInstantiationTUFailsImportNamingTheSymbol) {
  std::string Target = migratedTarget();
  std::string Lost = "csrc/kernels/axpy/axpy/launch_f32.cu";
  ASSERT_TRUE(std::filesystem::remove(Target + "/" + Lost));
  std::string Setup = readFile(Target + "/setup.py");
  std::string Listed = "        \"" + Lost + "\",\n";
  size_t At = Setup.find(Listed);
  ASSERT_NE(At, std::string::npos) << Setup;
  writeFile(Target + "/setup.py", Setup.erase(At, Listed.size()));
  nlohmann::json Doc = run(Target, 1);
  EXPECT_EQ((*layer(Doc, "build"))["status"], "pass") << "it builds; it only fails to load";
  const nlohmann::json *Missing = check(*layer(Doc, "import"), "import-missing-symbol");
  ASSERT_NE(Missing, nullptr) << Doc.dump(2);
  EXPECT_EQ((*Missing)["status"], "fail");
  std::string Reason = (*Missing)["reason"];
  EXPECT_NE(Reason.find("undefined symbol `cache_dit::axpy::AxpyLauncher<float>::run(float "
                        "const*, float*, int, CUstream_st*)`"),
            std::string::npos)
      << Reason;
  EXPECT_NE(Reason.find("the manifest lists " + Lost + ", which is missing"), std::string::npos)
      << Reason;
  EXPECT_EQ(Doc["findings"][0]["file"], Lost);
  EXPECT_EQ((*check(*layer(Doc, "import"), "import-without-extension"))["status"], "pass");
}

TEST_F(ValidateWithTorch, ASourceThatDoesNotCompileNamesTheFileAndItsFirstError) {
  std::string Target = migratedTarget();
  std::string Source = Target + "/csrc/kernels/axpy/axpy/launch_f32.cu";
  ASSERT_TRUE(std::filesystem::exists(Source));
  writeFile(Source, readFile(Source) + "void planted() { planted_undeclared_name(); }\n");
  nlohmann::json Doc = run(Target, 1);
  const nlohmann::json *Compile = check(*layer(Doc, "build"), "build-compile");
  ASSERT_NE(Compile, nullptr) << Doc.dump(2);
  EXPECT_EQ((*Compile)["status"], "fail");
  std::string Reason = (*Compile)["reason"];
  EXPECT_EQ(Reason.rfind("csrc/kernels/axpy/axpy/launch_f32.cu: ", 0), 0u) << Reason;
  EXPECT_NE(Reason.find("launch_f32.cu:6: error: identifier \"planted_undeclared_name\" is "
                        "undefined"),
            std::string::npos)
      << Reason;
  EXPECT_EQ(Reason.find('\n'), std::string::npos) << "one error, not the log";
  EXPECT_EQ((*check(*layer(Doc, "import"), "import-load"))["status"], "skip");
}

/// The generic profile's CMake project, as migrate generates it from an
/// upstream that declares no standard, configured by the CMake on PATH
/// (Debian 12's 3.25 here, 4.x elsewhere) against the pinned torch, which
/// demands C++20; the library it builds registers exactly the manifest's ops.
TEST_F(ValidateWithTorch, TheGenericSampleBuildsWithThisCMakeAndRegistersItsOps) {
  if (std::system("command -v cmake >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no cmake on PATH: a generic domain's build cannot be configured";
  std::string Target = migratedGenericTarget();
  std::string Project = readFile(Target + "/kernels/sample_ops/CMakeLists.txt");
  EXPECT_NE(Project.find("target_compile_features(opmig_sample_ops PRIVATE cxx_std_20)\n"),
            std::string::npos)
      << Project;
  EXPECT_EQ(Project.find("cuda_std_"), std::string::npos) << "CMake 3.25 knows no cuda_std_20";
  nlohmann::json Doc = run(Target, 0, "sample_ops");
  EXPECT_EQ(Doc["profile"], "generic");
  for (const char *Name : {"build", "import"}) {
    const nlohmann::json *Layer = layer(Doc, Name);
    ASSERT_NE(Layer, nullptr) << Doc.dump(2);
    EXPECT_EQ((*Layer)["status"], "pass") << Layer->dump(2);
    for (const nlohmann::json &C : (*Layer)["checks"])
      EXPECT_EQ(C["status"], "pass") << C.dump(2);
  }
  const nlohmann::json *Link = check(*layer(Doc, "build"), "build-link");
  ASSERT_NE(Link, nullptr) << Doc.dump(2);
  // A build reused from the cache was configured when it was made.
  if (!(*Link)["figures"].value("reused", false)) {
    EXPECT_NE(check(*layer(Doc, "build"), "build-configure"), nullptr) << Doc.dump(2);
  }
  const nlohmann::json *Registered = check(*layer(Doc, "import"), "import-registered-ops");
  ASSERT_NE(Registered, nullptr) << Doc.dump(2);
  EXPECT_EQ((*Registered)["reason"],
            "registers exactly the manifest's 2 op(s) in opmig_sample_ops");
}

/// A fresh generic migration of the sample whose spec nobody touched
/// (`cases: TODO`), its upstream copy given the hand-written upstream test
/// of tests/fixtures/upstream_tests: the fake layer, which runs without a
/// GPU, runs merge_attn_states over cases read from that test (and the
/// sample's own) and generated from the code, each marked so; rms_norm, whose x the code
/// checks only to have at least one dim (`["...", "hidden"]`), gets generated cases whose
/// leading dim holds the rows.
TEST_F(ValidateWithTorch, AnUntouchedSpecRunsCasesFromTheUpstreamTestsAndTheCode) {
  if (std::system("command -v cmake >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no cmake on PATH: a generic domain's build cannot be configured";
  MigrationCase C = sampleIntoGeneric();
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box));
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  writeFile(Box.Source + "/tests/merge_test.py",
            readFile(std::string(OPMIG_SOURCE_DIR) +
                     "/tests/fixtures/upstream_tests/tests/kernels/merge_test.py"));
  ToolResult R =
      validate(Box.Target, {"--layers", "fake", "--format", "json", "--source", Box.Source}, env(),
               "sample_ops");
  nlohmann::json Doc = R.json();
  const nlohmann::json *Fake = layer(Doc, "fake");
  ASSERT_NE(Fake, nullptr) << R.Stdout << R.Stderr;
  std::map<std::string, std::string> Origins;
  for (const nlohmann::json &Check : (*Fake)["checks"])
    if (Check["figures"].contains("origin")) {
      Origins[Check["name"]] = Check["figures"]["origin"];
      EXPECT_NE(Check["reason"].get<std::string>().find(
                    "(" + Check["figures"]["origin"].get<std::string>() + ")"),
                std::string::npos)
          << Check.dump(2);
    }
  EXPECT_EQ(Origins["fake:merge_attn_states/generated-base/float32"], "generated from the code")
      << Fake->dump(2);
  EXPECT_EQ(Origins["fake:merge_attn_states/generated-odd/float32"], "generated from the code");
  EXPECT_EQ(Origins["fake:merge_attn_states/generated-many-rows/float32"],
            "generated from the code");
  EXPECT_EQ(Origins["fake:merge_attn_states/upstream-merge_test-16/float32"],
            "from upstream test tests/merge_test.py:16");
  EXPECT_EQ(Origins["fake:merge_attn_states/upstream-merge_test-23-1/float32"],
            "from upstream test tests/merge_test.py:23");
  EXPECT_EQ(Origins["fake:merge_attn_states/upstream-test_ops-83/float32"],
            "from upstream test tests/test_ops.py:83")
      << "the sample's own test: its loop is not read, its literal shapes are";
  EXPECT_EQ(check(*Fake, "fake:rms_norm/spec"), nullptr) << "the code tells x's shape";
  EXPECT_EQ(Origins["fake:rms_norm/generated-base/float32"], "generated from the code");
  EXPECT_EQ(Origins["fake:rms_norm/generated-many-rows/float32"], "generated from the code");
  std::string Notes = Doc["notes"].dump();
  EXPECT_NE(Notes.find("merge_attn_states: upstream tests: 6 calls of merge_attn_states seen in 2 "
                       "upstream test files, 3 gave shapes: 4 cases kept"),
            std::string::npos)
      << Notes;
  EXPECT_NE(Notes.find("merge_attn_states: the spec gives no cases: 4 from upstream tests, 4 "
                       "generated from the code"),
            std::string::npos)
      << Notes;
}

TEST_F(ValidateWithTorch, TheVeomniSampleBuildsLikeItsJitLoadAndPassesImportAndApi) {
  std::string Target = migratedVeomniTarget();
  nlohmann::json Doc = run(Target, 0, "cuda_rms_norm", "build,import,api");
  EXPECT_EQ(Doc["profile"], "veomni");
  for (const nlohmann::json &L : Doc["layers"]) {
    for (const nlohmann::json &C : L["checks"]) {
      if (C["name"] != "api-opcheck") { // it runs the kernel: a GPU's
        EXPECT_EQ(C["status"], "pass") << C.dump(2);
      }
    }
  }
  const nlohmann::json *Link = check(*layer(Doc, "build"), "build-link");
  ASSERT_NE(Link, nullptr) << Doc.dump(2);
  EXPECT_NE(
      (*Link)["figures"]["library"].get<std::string>().find("/ext/veomni_cuda_rms_norm_cuda.so"),
      std::string::npos)
      << Link->dump(2);
  EXPECT_EQ((*check(*layer(Doc, "import"), "import-extension-unavailable"))["reason"],
            "the failed build is kept: load() ran once for 2 calls");
}

TEST_F(ValidateWithTorch, AVeomniOpPackageThatBuildsAtImportFailsImportOnly) {
  std::string Target = migratedVeomniTarget();
  std::string Package = Target + "/veomni/ops/cuda_rms_norm/__init__.py";
  writeFile(Package, readFile(Package) +
                         "\nfrom .cuda_impl import _get_required_ops_module\n"
                         "_get_required_ops_module()  # planted: builds at import\n");
  nlohmann::json Doc = run(Target, 1, "cuda_rms_norm", "build,import,api");
  EXPECT_EQ((*layer(Doc, "build"))["status"], "pass") << Doc.dump(2);
  const nlohmann::json *Import = layer(Doc, "import");
  const nlohmann::json *Without = check(*Import, "import-without-extension");
  ASSERT_NE(Without, nullptr) << Import->dump(2);
  EXPECT_EQ((*Without)["status"], "fail");
  EXPECT_NE((*Without)["reason"].get<std::string>().find("could not be built from "
                                                         "veomni/ops/cuda_rms_norm/csrc"),
            std::string::npos)
      << Without->dump(2);
  EXPECT_EQ((*check(*Import, "import-load"))["status"], "pass") << Import->dump(2);
  EXPECT_EQ((*layer(Doc, "api"))["status"], "pass") << "the built extension is handed over";
}

TEST_F(ValidateWithTorch, AVeomniLoadTheReaderCannotFollowFailsThePlanNamingTheLine) {
  std::string Target = migratedVeomniTarget();
  std::string Impl = Target + "/veomni/ops/cuda_rms_norm/cuda_impl.py";
  std::string Text = readFile(Impl);
  size_t At = Text.find("for source in _SOURCES]");
  ASSERT_NE(At, std::string::npos) << Text;
  writeFile(Impl, Text.replace(At, 23, "for source in sorted(_SOURCES)]"));
  nlohmann::json Doc = run(Target, 1, "cuda_rms_norm", "build");
  const nlohmann::json *Plan = check(*layer(Doc, "build"), "build-plan");
  ASSERT_NE(Plan, nullptr) << Doc.dump(2);
  std::string Reason = (*Plan)["reason"];
  EXPECT_NE(Reason.find("veomni/ops/cuda_rms_norm/cuda_impl.py, its load(...): line "),
            std::string::npos)
      << Reason;
  EXPECT_NE(Reason.find("cannot follow a call of sorted"), std::string::npos) << Reason;
}

/// The left_out fixture: each entry's TU also defines siblings whose
/// launchers are in a TU outside the closure (a pybind module and a
/// TORCH_LIBRARY block), as causal-conv1d's csrc/causal_conv1d.cpp does.
TEST_F(ValidateWithTorch, TheUpstreamBuildLeavesOutWhatMigrateLeftOut) {
  MigrationCase C = {"validate_left_out",
                     "tests/fixtures/upstream/left_out",
                     {"shift_update", "scale_update"},
                     "tests/fixtures/targets/cache_dit_like",
                     "cache-dit",
                     "shift"};
  MigrationSandbox Box(C);
  std::vector<std::string> Args = migrateArgs(C, Box, {"--mutates", "shift_update=state"});
  Args.push_back("-std=c++20");
  ToolResult Migrated = runOpmig(Args);
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  nlohmann::json Manifest =
      nlohmann::json::parse(readFile(Box.Target + "/csrc/kernels/shift/opmig-manifest.json"));
  std::map<std::string, nlohmann::json> LeftOut;
  for (const nlohmann::json &F : Manifest["files"])
    if (F.contains("left_out"))
      LeftOut[F["upstream_path"]] = F["left_out"];
  ASSERT_EQ(LeftOut.size(), 2u) << Manifest.dump(2);
  EXPECT_EQ(LeftOut["csrc/shift_binding.cpp"][0]["definitions"],
            nlohmann::json({"shift_fwd", "shift_bwd"}));
  EXPECT_EQ(LeftOut["csrc/shift_binding.cpp"][0]["first_line"], 7);
  EXPECT_EQ(LeftOut["csrc/scale_ops.cpp"][0]["definitions"], nlohmann::json({"scale_fwd"}));

  ToolResult R =
      validate(Box.Target, {"--source", Box.Source, "--layers", "build,diff", "--format", "json"},
               env(), "shift");
  nlohmann::json Doc = R.json();
  const nlohmann::json *Built = check(*layer(Doc, "diff"), "diff-upstream-build");
  ASSERT_NE(Built, nullptr) << Doc.dump(2);
  ASSERT_EQ((*Built)["status"], "pass") << Built->dump(2);
  EXPECT_NE((*Built)["reason"].get<std::string>().find(
                "csrc/shift_binding.cpp less what migrate left out: lines 7-18 (shift_fwd, "
                "shift_bwd)"),
            std::string::npos)
      << Built->dump(2);
  EXPECT_EQ((*Built)["figures"]["left_out"]["csrc/scale_ops.cpp"][0]["definitions"],
            nlohmann::json({"scale_fwd"}));
  // Built whole, the library would need the siblings' launchers.
  ToolResult Undefined = runProgram(
      {"/usr/bin/nm", "-D", "--undefined-only", (*Built)["figures"]["library"].get<std::string>()});
  ASSERT_EQ(Undefined.ExitCode, 0) << Undefined.Stderr;
  for (const char *Launcher : {"shift_fwd_cuda", "shift_bwd_cuda"})
    EXPECT_EQ(Undefined.Stdout.find(Launcher), std::string::npos) << Undefined.Stdout;
}

} // namespace
} // namespace opmig::test
