//===- RealTorchTest.cpp - The closure, its flags and --verify on real torch ---===//
//
// The stand-in headers keep most tests fast, but they hid that current torch
// demands C++20 and that its symbols live in libraries: these cases run with
// the pinned PyPI torch that scripts/install-deps.sh installs (headers and
// libtorch, found the way a user's torch is found: through importlib, with
// no flag) and skip, saying why, when it is not there.
//
//===----------------------------------------------------------------------===//

#include "MigrateSupport.h"
#include "ToolRunner.h"

#include <gtest/gtest.h>
#include <set>
#include <sys/stat.h>

namespace opmig::test {
namespace {

std::string torchDir() { return pinnedTorchDir(); }

bool exists(const std::string &Path) {
  struct stat Info;
  return stat(Path.c_str(), &Info) == 0;
}

class RealTorch : public ::testing::Test {
protected:
  void SetUp() override {
    if (!exists(torchDir() + "/torch/version.py"))
      GTEST_SKIP() << "no torch " << OPMIG_TORCH_VERSION << " in " << torchDir()
                   << ": run scripts/install-deps.sh (it pip-installs the pinned torch)";
  }
  /// opmig as a user runs it: torch on the interpreter's path, no flag.
  ToolResult analyze(const std::string &Entry) {
    return runOpmig({"analyze", "--source", fixture("upstream/template_launch"), "--entry", Entry,
                     "--format", "json", "--verify"},
                    {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + torchDir()});
  }
};

TEST_F(RealTorch, ClassTemplateLaunchersParseVerifyAndLink) {
  ToolResult Result = analyze("axpy");
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(Doc["partial"], false) << Doc["partial_reasons"].dump(2);
  const nlohmann::json &Torch = Doc["build_flags"]["torch"];
  ASSERT_TRUE(Torch.is_object()) << "torch was not found from the interpreter";
  EXPECT_EQ(Torch["version"].get<std::string>().rfind(OPMIG_TORCH_VERSION, 0), 0u);
  EXPECT_EQ(Torch["cxx_standard"], 20);
  auto Flags = Doc["build_flags"]["inferred"].get<std::vector<std::string>>();
  ASSERT_FALSE(Flags.empty());
  EXPECT_EQ(Flags.front(), "-std=c++20") << "the standard the torch headers demand";
  std::set<std::string> Files;
  for (const auto &File : Doc["files"])
    Files.insert(File["path"]);
  EXPECT_EQ(Files, (std::set<std::string>{"csrc/axpy/axpy_op.cu", "csrc/axpy/launch.cuh",
                                          "csrc/axpy/launch_f16.cu", "csrc/axpy/launch_f32.cu",
                                          "csrc/axpy/launch_impl.cuh", "csrc/binding.cpp",
                                          "csrc/common/dispatch.h", "csrc/ops.h"}));
  EXPECT_EQ(Doc["links_as_copied"], true);
  EXPECT_EQ(Doc["verify"]["links"], true) << Doc["verify"].dump(2);
  EXPECT_NE(Doc["verify"]["linked_against"].get<std::string>().find("torch " OPMIG_TORCH_VERSION),
            std::string::npos)
      << "undefined symbols must be resolved against torch's own libraries";
}

/// torch's headers reject a `TORCH_LIBRARY` kernel that takes `float` or
/// `int` with a static_assert, which the stand-ins cannot show: the generated
/// registration (adapters included) and binding header compile against the
/// real ones.
TEST_F(RealTorch, GenericRegistrationOfFloatAndIntParametersCompiles) {
  MigrationCase C{"scalar_params_generic",
                  "tests/fixtures/upstream/scalar_params",
                  {"scale_shift", "fill_value", "add_bias"},
                  "tests/fixtures/targets/generic_like",
                  "generic",
                  "scalars"};
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box, {"--format", "json"}, /*Stubs=*/false),
                                 {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + torchDir()});
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  std::string Include = torchDir() + "/torch/include";
  ToolResult Compiled =
      runProgram({OPMIG_CLANGXX, "-std=c++20", "-fsyntax-only", "-isystem", Include, "-isystem",
                  Include + "/torch/csrc/api/include", "-I", Box.Target + "/kernels",
                  Box.Target + "/kernels/scalars/scalars.cpp"});
  EXPECT_EQ(Compiled.ExitCode, 0) << Compiled.Stdout << Compiled.Stderr;
}

TEST_F(RealTorch, SampleMigrationCompilesWithNvccBeforeItIsWritten) {
  if (!haveNvcc())
    GTEST_SKIP() << "no nvcc here: the compile check is not exercised against real torch";
  MigrationCase C = sampleIntoCacheDit();
  MigrationSandbox Box(C);
  ToolResult Migrated =
      runOpmig(migrateArgs(C, Box, {"--format", "json"}, /*Stubs=*/false, /*CompileCheck=*/true),
               {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + torchDir()});
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  const nlohmann::json Check = Migrated.json()["compile_check"];
  ASSERT_TRUE(Check["ran"].get<bool>()) << Check.dump(2);
  EXPECT_GE(Check["tus"].size(), 2u); // The ported TUs and the generated binding.
  for (const nlohmann::json &TU : Check["tus"])
    EXPECT_TRUE(TU["compiles"].get<bool>()) << TU.dump(2);

  // As written, the domain compiles to objects against torch's headers and
  // links against its libraries with nothing undefined.
  ToolResult Reviewed =
      runOpmig({"review", "--target", Box.Target, "--domain", C.Domain, "--format", "json"},
               {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + torchDir()});
  const nlohmann::json Build = Reviewed.json()["build_check"];
  ASSERT_TRUE(Build["ran"].get<bool>()) << Build.dump(2) << Reviewed.Stderr;
  EXPECT_EQ(Build["compiling"], Build["total"]) << Build.dump(2);
  EXPECT_TRUE(Build["link"]["links"].get<bool>()) << Build["link"].dump(2);
  EXPECT_NE(Build["link"]["linked_against"].get<std::string>().find("torch " OPMIG_TORCH_VERSION),
            std::string::npos)
      << Build["link"].dump(2);
}

/// Outputs taken by value, by const reference and as an optional are
/// marked written through torch's own declarations (`data_ptr` and `add_`
/// live in `TensorBase` and `Tensor`), and a registration of those C++
/// types under the `Tensor(a!)` schemas compiles, an adapter passing a
/// non-const `c10::optional<at::Tensor> &` included; a non-const reference
/// that is only rebound is no write, and its adapter compiles too.
TEST_F(RealTorch, WrittenOutputsAreMutableAndTheirRegistrationCompiles) {
  MigrationCase C{"out_params_generic",
                  "tests/fixtures/upstream/out_params",
                  {"scale_into", "row_sum", "accumulate", "row_max", "scale_rows"},
                  "tests/fixtures/targets/generic_like",
                  "generic",
                  "outs"};
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box, {"--format", "json"}, /*Stubs=*/false),
                                 {"OPMIG_NO_TORCH=0", "PYTHONPATH=" + torchDir()});
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  nlohmann::json Report = Migrated.json();
  std::vector<std::string> Schemas;
  for (const nlohmann::json &Op : Report["ops"])
    Schemas.push_back(Op["schema"].get<std::string>());
  EXPECT_EQ(Schemas, (std::vector<std::string>{"(Tensor(a!) out, Tensor x, float scale) -> ()",
                                               "(Tensor x, Tensor(a!) out, Tensor(b!)? mean) -> ()",
                                               "(Tensor(a!) acc, Tensor x) -> Tensor(a!)",
                                               "(Tensor x, Tensor(a!)? max_out_) -> ()",
                                               "(Tensor x, float scale) -> Tensor"}));
  std::string Include = torchDir() + "/torch/include";
  ToolResult Compiled =
      runProgram({OPMIG_CLANGXX, "-std=c++20", "-fsyntax-only", "-isystem", Include, "-isystem",
                  Include + "/torch/csrc/api/include", "-I", Box.Target + "/kernels",
                  Box.Target + "/kernels/outs/outs.cpp"});
  EXPECT_EQ(Compiled.ExitCode, 0) << Compiled.Stdout << Compiled.Stderr;
}

/// What tests/python/fake_shapes.py prints for the spec_checks rms_norm
/// whose fake or Meta kernel migrate generated: symbolic sizes pass; a bad
/// rank, two shared dims that disagree and a size that breaks `hidden % 8
/// == 0` are rejected, as the upstream's TORCH_CHECKs reject them.
const char *const SpecChecksFakeShapes =
    "symbolic trace passes\n"
    "accepts ((4, 16), (4, 16), (16,))\n"
    "rejects ((4, 16), (4, 16, 1), (16,)) | rms_norm: x must have 2 dims, got 3 (checked at "
    "upstream csrc/norm.cpp:14:3)\n"
    "rejects ((4, 16), (4, 16), (8,)) | rms_norm: w.size(0) must equal out.size(1) (dim hidden), "
    "got 8 and 16\n"
    "rejects ((3, 16), (4, 16), (16,)) | rms_norm: x.size(0) must equal out.size(0) (dim rows), "
    "got 4 and 3\n"
    "rejects ((4, 12), (4, 12), (12,)) | rms_norm: hidden % 8 == 0 must hold, got hidden = 12 "
    "(checked at upstream csrc/norm.cpp:20:3)\n";

MigrationCase specChecksInto(const std::string &Profile, const std::string &Target) {
  return {"spec_checks_" + Profile,
          "tests/fixtures/upstream/spec_checks",
          {"rms_norm"},
          "tests/fixtures/targets/" + Target,
          Profile,
          "spec"};
}

/// fake_shapes.py with the pinned torch and `Path` on the module path.
ToolResult fakeShapes(const std::string &Namespace, const std::string &Load,
                      const std::string &Path = "") {
  return runProgram({"/usr/bin/env", "python3",
                     std::string(OPMIG_SOURCE_DIR) + "/tests/python/fake_shapes.py", Namespace,
                     Load},
                    {"PYTHONPATH=" + torchDir() + (Path.empty() ? "" : ":" + Path)});
}

/// The Python fakes of cache-dit and veomni reject what the entry rejects,
/// under FakeTensorMode, and take torch.compile's symbolic sizes.
TEST_F(RealTorch, PythonFakesRejectTheShapesTheEntryRejects) {
  struct Profile {
    std::string Name, Target, Namespace, Module, Path;
  };
  for (const Profile &P :
       {Profile{"cache-dit", "cache_dit_like", "cache_dit_cuda_ops", "cache_dit.kernels._spec",
                "src"},
        Profile{"veomni", "veomni_like", "veomni_ops", "veomni.ops.spec.cuda_impl", ""}}) {
    MigrationCase C = specChecksInto(P.Name, P.Target);
    MigrationSandbox Box(C);
    ToolResult Migrated = runOpmig(migrateArgs(C, Box));
    ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
    ToolResult Shapes = fakeShapes(P.Namespace, P.Module, Box.Target + "/" + P.Path);
    EXPECT_EQ(Shapes.ExitCode, 0) << P.Name << ": " << Shapes.Stderr;
    EXPECT_EQ(Shapes.Stdout, SpecChecksFakeShapes) << P.Name;
  }
}

/// The generic profile's Meta kernel does the same in C++: the migrated
/// domain (host code only, no kernel to compile with nvcc) built against
/// the real torch and loaded.
TEST_F(RealTorch, MetaKernelsRejectTheShapesTheEntryRejects) {
  MigrationCase C = specChecksInto("generic", "generic_like");
  MigrationSandbox Box(C);
  ToolResult Migrated = runOpmig(migrateArgs(C, Box));
  ASSERT_EQ(Migrated.ExitCode, 0) << Migrated.Stdout << Migrated.Stderr;
  std::string Include = torchDir() + "/torch/include", Lib = torchDir() + "/torch/lib";
  std::string Domain = Box.Target + "/kernels/spec", Library = Box.Target + "/libspec.so";
  ToolResult Built = runProgram({OPMIG_CLANGXX,
                                 "-std=c++20",
                                 "-shared",
                                 "-fPIC",
                                 "-O0",
                                 "-isystem",
                                 Include,
                                 "-isystem",
                                 Include + "/torch/csrc/api/include",
                                 "-I",
                                 Box.Target + "/kernels",
                                 Domain + "/spec.cpp",
                                 Domain + "/norm.cpp",
                                 Domain + "/launch.cpp",
                                 "-L",
                                 Lib,
                                 "-Wl,-rpath," + Lib,
                                 "-ltorch",
                                 "-ltorch_cpu",
                                 "-lc10",
                                 "-o",
                                 Library});
  ASSERT_EQ(Built.ExitCode, 0) << Built.Stdout << Built.Stderr;
  ToolResult Shapes = fakeShapes("opmig_spec", Library);
  EXPECT_EQ(Shapes.ExitCode, 0) << Shapes.Stderr;
  EXPECT_EQ(Shapes.Stdout, SpecChecksFakeShapes);
}

} // namespace
} // namespace opmig::test
