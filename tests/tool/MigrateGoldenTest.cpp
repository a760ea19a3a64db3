// Golden migrations: each case migrates a fixture upstream into a fixture
// target and compares every file the migration created or changed with
// tests/golden/migrate/<case>/ byte for byte. Then it checks what the
// migrated tree must be: idempotent, valid Python, and native code that
// compiles and links on its own. OPMIG_UPDATE_GOLDEN=1 rewrites the goldens.

#include "MigrateSupport.h"
#include "ToolRunner.h"
#include "TreeSnapshot.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>

namespace opmig::test {
namespace {

class MigrateGoldenTest : public ::testing::TestWithParam<MigrationCase> {};

std::string goldenDir(const MigrationCase &C) {
  return std::string(OPMIG_SOURCE_DIR) + "/tests/golden/migrate/" + C.Name;
}

void expectPythonParses(const std::string &Root, const Tree &Changes) {
  for (const auto &[Path, Content] : Changes) {
    if (Path.size() < 3 || Path.compare(Path.size() - 3, 3, ".py") != 0)
      continue;
    std::string Command = "python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' '" +
                          Root + "/" + Path + "' 2>&1";
    EXPECT_EQ(std::system(Command.c_str()), 0) << Path << " is not valid Python";
  }
}

TEST_P(MigrateGoldenTest, ProducesTheGoldenTreeOnceAndCompiles) {
  const MigrationCase &C = GetParam();
  MigrationSandbox Box(C);
  Tree Before = snapshotTree(Box.Target);

  ToolResult First =
      runOpmig(migrateArgs(C, Box, {"--format", "json"}, /*Stubs=*/true, /*CompileCheck=*/true));
  ASSERT_EQ(First.ExitCode, 0) << First.Stdout << First.Stderr;
  nlohmann::json Report = First.json();
  EXPECT_EQ(Report["outcome"], "written");
  // Before writing, nvcc compiled every TU written (ported and generated).
  const nlohmann::json &Check = Report["compile_check"];
  if (haveNvcc()) {
    EXPECT_TRUE(Check["ran"].get<bool>()) << Check.dump(2);
    EXPECT_FALSE(Check["adds_errors"].get<bool>()) << Check.dump(2);
    for (const nlohmann::json &TU : Check["tus"])
      EXPECT_TRUE(TU["compiles"].get<bool>()) << TU.dump(2);
  } else {
    std::cout << "[  NOTE    ] no nvcc here: the compile check did not run\n";
    EXPECT_FALSE(Check["ran"].get<bool>());
  }
  Tree After = snapshotTree(Box.Target);
  Tree Changes = treeChanges(Before, After);

  if (std::getenv("OPMIG_UPDATE_GOLDEN"))
    writeTree(goldenDir(C), Changes);
  EXPECT_EQ(describeTreeDifference(snapshotTree(goldenDir(C)), Changes), "");

  ToolResult Second = runOpmig(migrateArgs(C, Box, {"--format", "json"}));
  ASSERT_EQ(Second.ExitCode, 0) << Second.Stdout << Second.Stderr;
  EXPECT_EQ(Second.json()["outcome"], "up-to-date");
  EXPECT_EQ(describeTreeDifference(After, snapshotTree(Box.Target)), "")
      << "a re-run with nothing changed must write nothing";

  expectPythonParses(Box.Target, Changes);

  // The submodules the code includes are the target's to add, where the
  // build glue looks for them: done here as a user would.
  std::vector<std::string> ThirdPartyFlags;
  for (const nlohmann::json &Party : Report["third_party"]) {
    EXPECT_FALSE(Party["present"].get<bool>());
    copyTreeInto(Box.Source + "/" + Party["upstream_dir"].get<std::string>(),
                 Box.Target + "/" + Party["target_dir"].get<std::string>());
    for (const nlohmann::json &Dir : Party["include_dirs"]) {
      ThirdPartyFlags.push_back("-isystem");
      ThirdPartyFlags.push_back(Box.Target + "/" + Dir.get<std::string>());
    }
  }

  // Every generated C++ file compiles against the migrated tree: a binding
  // that names a function no header it includes declares fails here.
  for (const nlohmann::json &Change : Report["changes"]) {
    std::string Path = Change["path"].get<std::string>();
    bool Cpp = Path.size() > 4 && Path.compare(Path.size() - 4, 4, ".cpp") == 0;
    if (Change["kind"] != "generated" || !Cpp)
      continue;
    std::vector<std::string> Command = {OPMIG_CLANGXX,
                                        "-std=c++20",
                                        "-fsyntax-only",
                                        "-isystem",
                                        std::string(OPMIG_FIXTURES_DIR) + "/stubs/include",
                                        "-I",
                                        Box.Target + "/" +
                                            Report["include_root"].get<std::string>()};
    Command.insert(Command.end(), ThirdPartyFlags.begin(), ThirdPartyFlags.end());
    Command.push_back(Box.Target + "/" + Path);
    ToolResult Compiled = runProgram(Command);
    EXPECT_EQ(Compiled.ExitCode, 0) << Path << "\n" << Compiled.Stdout << Compiled.Stderr;
  }

  // The migrated native tree, alone: every TU of the ops' closures compiles
  // (host and device) and the objects link with no tree symbol left
  // undefined. One --verify of every op: each TU is compiled once.
  std::string NativeDir = Box.Target + "/" + Report["native_dir"].get<std::string>();
  std::string IncludeRoot = Box.Target + "/" + Report["include_root"].get<std::string>();
  std::vector<std::string> Args = {"analyze", "--source", NativeDir, "--verify"};
  for (const nlohmann::json &Op : Report["ops"])
    Args.insert(Args.end(), {"--entry", Op["cpp_function"].get<std::string>()});
  Args.insert(Args.end(), {"--", "-isystem", std::string(OPMIG_FIXTURES_DIR) + "/stubs/include",
                           "-I", IncludeRoot});
  Args.insert(Args.end(), ThirdPartyFlags.begin(), ThirdPartyFlags.end());
  ToolResult Verify = runOpmig(Args);
  EXPECT_EQ(Verify.ExitCode, 0) << Verify.Stdout << Verify.Stderr;
}

/// The out_params fixture's entries (its README says what each plants).
std::vector<std::string> outParamsEntries() {
  return {"scale_into", "row_sum", "accumulate", "row_max", "scale_rows"};
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MigrateGoldenTest,
    ::testing::Values(
        sampleIntoCacheDit(),
        MigrationCase{"sample_veomni",
                      "samples/upstream",
                      {"rms_norm"},
                      "tests/fixtures/targets/veomni_like",
                      "veomni",
                      "cuda_rms_norm"},
        MigrationCase{"sample_generic",
                      "samples/upstream",
                      {"merge_attn_states", "rms_norm"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "sample_ops"},
        MigrationCase{"multi_op_generic",
                      "tests/fixtures/upstream/multi_op",
                      {"fused_fwd"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "fused"},
        // Per-dtype providers of class-template
        // members, into a domain named like the
        // upstream namespace (`tl::` inside
        // `opmig::kernels::tl` must become `::tl::`).
        MigrationCase{"template_launch_generic",
                      "tests/fixtures/upstream/template_launch",
                      {"axpy", "scale_rows", "gate", "bias_act", "pack"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "tl"},
        // Two TUs that each define a sibling with
        // headers of its own: the siblings and
        // their includes go, the rest links.
        MigrationCase{"sibling_headers_generic",
                      "tests/fixtures/upstream/sibling_headers",
                      {"rms_norm", "gelu"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "sh"},
        // float/int/long long parameters: the
        // TORCH_LIBRARY registration needs adapters.
        MigrationCase{"scalar_params_generic",
                      "tests/fixtures/upstream/scalar_params",
                      {"scale_shift", "fill_value", "add_bias"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "scalars"},
        // Outputs taken by value, by const reference
        // and as an optional, written by the body:
        // `Tensor(a!)`, `Tensor(b!)?` all the same.
        MigrationCase{"out_params_generic", "tests/fixtures/upstream/out_params",
                      outParamsEntries(), "tests/fixtures/targets/generic_like", "generic", "outs"},
        // Writes no body shows (in kernels of another
        // TU): the upstream's own TORCH_LIBRARY
        // schemas mark them, by name or position.
        MigrationCase{"schema_marks_generic",
                      "tests/fixtures/upstream/schema_marks",
                      {"fill_rows", "masked_copy", "row_max"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "marks"},
        MigrationCase{"out_params_cache_dit", "tests/fixtures/upstream/out_params",
                      outParamsEntries(), "tests/fixtures/targets/cache_dit_like", "cache-dit",
                      "outs"},
        // A cache-dit before its first native
        // extension: --bootstrap writes the
        // guard test, the wheel gate, __all__ and
        // setup.py's _get_ext_modules().
        MigrationCase{"sample_cache_dit_bootstrap",
                      "samples/upstream",
                      {"merge_attn_states"},
                      "tests/fixtures/targets/cache_dit_partial",
                      "cache-dit",
                      "attn",
                      {"--bootstrap"}},
        // The convention in other shapes: a tuple
        // __all__, extensions gathered in a
        // comprehension under the main guard,
        // names kept in a parametrize list.
        MigrationCase{"sample_cache_dit_spec_shaped",
                      "samples/upstream",
                      {"merge_attn_states"},
                      "tests/fixtures/targets/cache_dit_spec_shaped",
                      "cache-dit",
                      "attn"},
        // Torch-facing wrappers with bodies in a
        // header: the siblings and the includes
        // only they use go, and the binding
        // includes the header that defines them.
        MigrationCase{"header_bodies_generic",
                      "tests/fixtures/upstream/header_bodies",
                      {"hb::ops::gemm", "hb::ops::quantize"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "hb"},
        // The same with nunchaku's prefixes
        // flattened (nested ones included): every
        // include between ported files respelled.
        MigrationCase{"header_bodies_generic_flat",
                      "tests/fixtures/upstream/header_bodies",
                      {"hb::ops::gemm", "hb::ops::quantize"},
                      "tests/fixtures/targets/generic_like",
                      "generic",
                      "hb",
                      {"--flatten", "src", "--flatten", "src/kernels", "--flatten", "python/csrc"}},
        MigrationCase{"header_bodies_cache_dit",
                      "tests/fixtures/upstream/header_bodies",
                      {"hb::ops::gemm"},
                      "tests/fixtures/targets/cache_dit_like",
                      "cache-dit",
                      "hb",
                      {"--rename-namespace", "hb=hb"}},
        MigrationCase{"pybind_cache_dit",
                      "tests/fixtures/upstream/pybind_mod",
                      {"gelu_forward"},
                      "tests/fixtures/targets/cache_dit_like",
                      "cache-dit",
                      "gelu"}),
    [](const ::testing::TestParamInfo<MigrationCase> &Info) { return Info.param.Name; });

} // namespace
} // namespace opmig::test
