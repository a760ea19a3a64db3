// runOpHarness over ops registered from Python (op_harness.py's `module`
// load) with CPU kernels that crash, hang or survive depending on the
// environment: each bad case fails by name, the cases after it still run,
// and a crash that a retry environment cures is reported as the
// environment's; the same with every child forked from a harness server.
// Needs the pinned torch; skipped, saying why, without it.

#include "opmig/validate/OpHarness.h"

#include "llvm/Support/Program.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace opmig::validate {
namespace {

using nlohmann::json;

std::string pinnedTorchDir() {
  if (const char *Dir = std::getenv("OPMIG_TORCH_DIR"); Dir && *Dir)
    return Dir;
  const char *Cache = std::getenv("XDG_CACHE_HOME");
  std::string Base = Cache && *Cache ? Cache : std::string(std::getenv("HOME")) + "/.cache";
  return Base + "/opmig/torch-" + OPMIG_TORCH_VERSION + "-full";
}

/// `h::touch(Tensor x) -> Tensor` returns x + 1, except that a case whose
/// x has 3 rows segfaults unless OPMIG_TEST_CURED is set, and one with 5
/// rows never returns.
constexpr const char *OpsModule = R"py(import os
import signal
import time

import torch

LIB = torch.library.Library("h", "DEF")
LIB.define("touch(Tensor x) -> Tensor")


def touch(x):
    if x.shape[0] == 3 and not os.environ.get("OPMIG_TEST_CURED"):
        os.kill(os.getpid(), signal.SIGSEGV)
    if x.shape[0] == 5:
        time.sleep(600)
    return x + 1


LIB.impl("touch", touch, "CPU")
)py";

json touchCase(int Rows) {
  return {{"name", "rows-" + std::to_string(Rows)},
          {"dims", {{"rows", Rows}}},
          {"dtypes", {{"x", "float32"}}},
          {"scalars", json::object()}};
}

/// Each case in an interpreter of its own, or forked from a server that
/// imported torch once: the outcomes are the same.
class OpHarnessTest : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    if (!llvm::sys::findProgramByName("python3"))
      GTEST_SKIP() << "skipped: no python3 on PATH";
    if (access((pinnedTorchDir() + "/torch/version.py").c_str(), F_OK) != 0)
      GTEST_SKIP() << "skipped: no pinned torch in " << pinnedTorchDir()
                   << " (scripts/install-deps.sh installs it)";
    Dir = std::filesystem::temp_directory_path() / ("opmig-harness-" + std::to_string(getpid()));
    std::filesystem::create_directories(Dir);
    std::ofstream(Dir / "touch_ops.py") << OpsModule;
  }
  void TearDown() override { std::filesystem::remove_all(Dir); }

  OpHarnessRun run(std::vector<int> Rows, std::vector<std::string> CrashRetry) {
    json Op = {{"name", "touch"},
               {"schema", "(Tensor x) -> Tensor"},
               {"inputs",
                {{{"name", "x"},
                  {"type", "Tensor"},
                  {"tensor", true},
                  {"shape", {"rows"}},
                  {"contiguous", true},
                  {"range", nullptr}}}},
               {"outputs", {{{"result", 0}}}},
               {"reference", nullptr},
               {"tolerances", json::object()},
               {"cases", json::array()},
               {"bad_cases", json::array()}};
    for (int R : Rows)
      Op["cases"].push_back(touchCase(R));
    json Request = {{"load", {{"kind", "module"}, {"path", Dir.string()}, {"module", "touch_ops"}}},
                    {"namespace", "h"},
                    {"device", "cpu"},
                    {"ops", {Op}}};
    HarnessEnvironment Env;
    Env.Python = llvm::sys::findProgramByName("python3").get();
    Env.Overrides = {"PYTHONPATH=" + pinnedTorchDir()};
    Env.CrashRetry = std::move(CrashRetry);
    if (GetParam())
      Env.Servers = makeHarnessServers();
    if (!Env.CrashRetry.empty())
      Env.CrashRetry.push_back(Env.Overrides.front());
    return runOpHarness(Env, "smoke", Request, Rows.size(), timeoutSeconds());
  }

  /// A fork starts its case at once; an interpreter of its own first
  /// imports torch, which takes seconds on a loaded machine.
  unsigned timeoutSeconds() const { return GetParam() ? 8 : 30; }

  std::filesystem::path Dir;
};

TEST_P(OpHarnessTest, ACrashAndAHangFailTheirCaseAndTheOthersStillRun) {
  OpHarnessRun Run = run({2, 3, 4, 5, 6}, {});
  ASSERT_EQ(Run.Fatal, "");
  ASSERT_EQ(Run.Cases.size(), 5u);
  EXPECT_EQ(Run.Cases[0].State, Status::Pass) << Run.Cases[0].Detail;
  EXPECT_EQ(Run.Cases[1].State, Status::Fail);
  EXPECT_EQ(Run.Cases[1].Name, "rows-3");
  EXPECT_EQ(Run.Cases[1].Detail.rfind("the case crashed: Segmentation fault", 0), 0u)
      << Run.Cases[1].Detail;
  EXPECT_EQ(Run.Cases[2].State, Status::Pass) << "the case after a crash runs in a new child";
  EXPECT_EQ(Run.Cases[3].State, Status::Fail);
  std::string Hung = "the case hung: timed out after " + std::to_string(timeoutSeconds()) + " s";
  EXPECT_EQ(Run.Cases[3].Detail.rfind(Hung, 0), 0u) << Run.Cases[3].Detail;
  EXPECT_EQ(Run.Cases[4].State, Status::Pass) << "and after a hang";
}

TEST_P(OpHarnessTest, ACrashTheRetryEnvironmentCuresIsTheEnvironments) {
  OpHarnessRun Run = run({3, 4}, {"OPMIG_TEST_CURED=1"});
  ASSERT_EQ(Run.Cases.size(), 2u);
  EXPECT_EQ(Run.Cases[0].State, Status::Pass) << "its status is what it did when cured";
  EXPECT_EQ(Run.Cases[0].Detail.rfind("environment, not the kernel: the case crashed: "
                                      "Segmentation fault without OPMIG_TEST_CURED=1",
                                      0),
            0u)
      << Run.Cases[0].Detail;
  EXPECT_EQ(Run.Cases[1].State, Status::Pass);
}

TEST_P(OpHarnessTest, ADomainThatDoesNotLoadIsFatal) {
  std::filesystem::remove(Dir / "touch_ops.py");
  OpHarnessRun Run = run({2}, {});
  EXPECT_TRUE(Run.Cases.empty());
  EXPECT_NE(Run.Fatal.find("the domain did not load: ModuleNotFoundError"), std::string::npos)
      << Run.Fatal;
}

INSTANTIATE_TEST_SUITE_P(Children, OpHarnessTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &Info) {
                           return Info.param ? "ForkedFromAServer" : "OwnInterpreter";
                         });

} // namespace
} // namespace opmig::validate
