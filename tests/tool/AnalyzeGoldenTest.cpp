//===- AnalyzeGoldenTest.cpp - Exact closures of the fixture trees --------===//
//
// Each case runs `opmig analyze --format json` (with --verify where the
// closure must build) and compares the document with
// tests/golden/analyze/<case>.json, minus what depends on the machine
// (timings, absolute paths of external headers). The README of each fixture
// tree says why its closure is what it is.
//
// OPMIG_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing;
// review the diff before committing.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <cstdlib>
#include <gtest/gtest.h>

namespace opmig::test {
namespace {

struct GoldenCase {
  std::string Name;
  std::string Source; ///< Relative to the repository root.
  std::vector<std::string> Entries;
  bool Verify = true;
  int ExpectedExit = 0;
  /// Clang alone judges the code (`--no-nvcc`) unless the case asks for
  /// nvcc; such a case skips where there is none.
  bool Nvcc = false;
};

void PrintTo(const GoldenCase &Case, std::ostream *OS) { *OS << Case.Name; }

/// Drops what differs between machines and runs.
nlohmann::json normalized(nlohmann::json Doc) {
  Doc.erase("stats");
  Doc["build_flags"].erase("inferred"); // absolute paths of this checkout
  for (auto &External : Doc["external"])
    External["resolved"] = !External["resolved"].is_null();
  if (Doc["verify"].is_object()) {
    Doc["verify"].erase("scratch_dir");
    Doc["verify"]["compiler"].erase("path"); // where this machine has it
  }
  return Doc;
}

class AnalyzeGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(AnalyzeGolden, MatchesGoldenJson) {
  const GoldenCase &Case = GetParam();
  if (Case.Nvcc && !haveNvcc())
    GTEST_SKIP() << "no nvcc here: the nvcc verdict on Clang's errors is not checked";
  std::vector<std::string> Args = {"analyze", "--source", Case.Source, "--format", "json"};
  if (!Case.Nvcc)
    Args.push_back("--no-nvcc");
  for (const std::string &Entry : Case.Entries)
    Args.insert(Args.end(), {"--entry", Entry});
  if (Case.Verify)
    Args.push_back("--verify");
  auto Stubs = stubArgs();
  Args.insert(Args.end(), Stubs.begin(), Stubs.end());
  ToolResult Result = runOpmig(Args);
  ASSERT_EQ(Result.ExitCode, Case.ExpectedExit) << Result.Stderr;
  nlohmann::json Actual = normalized(Result.json());

  std::string GoldenPath =
      std::string(OPMIG_SOURCE_DIR) + "/tests/golden/analyze/" + Case.Name + ".json";
  if (const char *Update = std::getenv("OPMIG_UPDATE_GOLDEN"); Update && *Update == '1') {
    writeFile(GoldenPath, Actual.dump(2) + "\n");
    GTEST_SKIP() << "golden file rewritten: " << GoldenPath;
  }
  nlohmann::json Expected =
      nlohmann::json::parse(readFile(GoldenPath), nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(Expected.is_discarded()) << "missing or malformed golden file " << GoldenPath;
  EXPECT_EQ(Actual, Expected) << "diff (expected -> actual):\n"
                              << nlohmann::json::diff(Expected, Actual).dump(2);
}

const GoldenCase Cases[] = {
    // The demo sample: per-dtype instantiation TUs join, the norm op stays.
    {"sample_merge_attn_states", "samples/upstream", {"merge_attn_states"}},
    {"sample_rms_norm", "samples/upstream", {"rms_norm"}},
    // Ops resolved through TORCH_LIBRARY; only the used specializations.
    {"multi_op_scale", fixture("upstream/multi_op"), {"scale"}},
    {"multi_op_rms_norm", fixture("upstream/multi_op"), {"rms_norm"}},
    // A helper reached only under __CUDA_ARCH__ >= 900 (device pass).
    {"multi_op_softcap", fixture("upstream/multi_op"), {"softcap"}},
    // Function pointers in a dispatch table.
    {"multi_op_activation", fixture("upstream/multi_op"), {"activation"}},
    // Two entries at once share their helpers.
    {"multi_op_scale_and_softcap", fixture("upstream/multi_op"), {"scale", "softcap"}},
    // The entry sits in a binding TU next to a sibling whose dependency and
    // header stay behind: copied whole it would not compile, and --verify
    // proves that the copy migrate makes (sibling and include left out) links.
    {"multi_op_fused_fwd", fixture("upstream/multi_op"), {"fused_fwd"}, true},
    {"sibling_headers_rms_norm", fixture("upstream/sibling_headers"), {"rms_norm"}, true},
    {"sibling_headers_gelu", fixture("upstream/sibling_headers"), {"gelu"}, true},
    // Torch-facing wrappers with bodies in a header (nunchaku's ops.h): the
    // unneeded ones are siblings, with the includes only they use; a
    // non-template kernel defined in a header goes with its only caller.
    {"header_bodies_gemm", fixture("upstream/header_bodies"), {"hb::ops::gemm"}, true},
    {"header_bodies_quantize", fixture("upstream/header_bodies"), {"hb::ops::quantize"}, true},
    {"pybind_gelu", fixture("upstream/pybind_mod"), {"gelu"}},
    {"pybind_gelu_backward", fixture("upstream/pybind_mod"), {"gelu_backward"}},
    // nvcc-only code Clang rejects: judged by Clang alone, a partial result
    // with the closure still exact; nvcc compiles it, so with nvcc it is
    // not, and --verify builds and links it with nvcc.
    {"partial_parse_bucketize", fixture("upstream/partial_parse"), {"bucketize_op"}, false},
    {"partial_parse_bucketize_nvcc",
     fixture("upstream/partial_parse"),
     {"bucketize_op"},
     /*Verify=*/true,
     /*ExpectedExit=*/0,
     /*Nvcc=*/true},
    // Code neither compiler accepts stays partial, with nvcc's error, and
    // --verify fails on it.
    {"nvcc_rejects_scale",
     fixture("upstream/bad_inputs/nvcc_rejects"),
     {"scale_op"},
     /*Verify=*/true,
     /*ExpectedExit=*/1,
     /*Nvcc=*/true},
    {"ambiguous_ns_a_launch", fixture("upstream/bad_inputs/ambiguous"), {"ns_a::launch"}},
    {"ambiguous_launch_extra", fixture("upstream/bad_inputs/ambiguous"), {"launch_extra"}},
    {"include_cycle", fixture("upstream/bad_inputs/include_cycle"), {"cycle_entry"}},
    {"not_utf8", fixture("upstream/bad_inputs/not_utf8"), {"latin1_entry"}},
    {"same_name_headers", fixture("upstream/bad_inputs/same_name_headers"), {"op_a"}},
    // Launchers that are members of class templates, provided per dtype
    // (tests/fixtures/upstream/template_launch/README.md).
    {"template_launch_axpy", fixture("upstream/template_launch"), {"axpy"}},
    {"template_launch_scale_rows", fixture("upstream/template_launch"), {"scale_rows"}},
    {"template_launch_gate", fixture("upstream/template_launch"), {"gate"}},
    {"template_launch_bias_act", fixture("upstream/template_launch"), {"bias_act"}},
};

INSTANTIATE_TEST_SUITE_P(Fixtures, AnalyzeGolden, ::testing::ValuesIn(Cases),
                         [](const auto &Info) { return Info.param.Name; });

} // namespace
} // namespace opmig::test
