//===- PreambleTest.cpp - A shared preamble changes no fact ----------------===//
//
// The analysis parses TUs that start with the same external includes with a
// precompiled preamble of them (docs/architecture.md, "The shared
// preamble"). Its facts must be those of plain parses: each case analyses a
// fixture with and without it and compares the JSON byte for byte, all but
// `stats` (timings, and how many parses had the preamble).
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace opmig::test {
namespace {

struct PreambleCase {
  std::string Name, Source;
  std::vector<std::string> Entries;
  std::vector<std::string> ClangArgs; ///< After the stand-in headers.
};

std::ostream &operator<<(std::ostream &OS, const PreambleCase &C) { return OS << C.Name; }

const std::string PreambleRuns = "tests/fixtures/upstream/preamble_runs";

/// `opmig analyze` of the case, with the preamble or without it; fails the
/// test unless it produced JSON.
nlohmann::json analyze(const PreambleCase &C, bool Preamble, std::vector<std::string> ClangArgs,
                       const std::vector<std::string> &Env) {
  std::vector<std::string> Args = {"analyze",  "--source", C.Source,
                                   "--format", "json",     "--no-cache"};
  for (const std::string &Entry : C.Entries)
    Args.insert(Args.end(), {"--entry", Entry});
  if (!Preamble)
    Args.push_back("--no-preamble");
  Args.push_back("--");
  Args.insert(Args.end(), ClangArgs.begin(), ClangArgs.end());
  ToolResult Result = runOpmig(Args, Env);
  EXPECT_TRUE(Result.ExitCode == 0 || Result.ExitCode == 1) << Result.Stderr;
  return Result.json();
}

/// The two results, `stats` apart, as text; and the plain one's stats.
void expectSameFacts(const nlohmann::json &With, const nlohmann::json &Without) {
  nlohmann::json A = With, B = Without;
  A.erase("stats");
  B.erase("stats");
  EXPECT_EQ(A.dump(1), B.dump(1));
  EXPECT_EQ(With["stats"]["parses_run"], Without["stats"]["parses_run"]);
  EXPECT_EQ(Without["stats"]["parses_with_preamble"], 0);
}

class PreambleEquivalence : public ::testing::TestWithParam<PreambleCase> {};

TEST_P(PreambleEquivalence, FactsEqualThoseOfPlainParses) {
  const PreambleCase &C = GetParam();
  std::vector<std::string> Clang = {"-isystem", stubArgs().back()};
  Clang.insert(Clang.end(), C.ClangArgs.begin(), C.ClangArgs.end());
  expectSameFacts(analyze(C, true, Clang, {}), analyze(C, false, Clang, {}));
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, PreambleEquivalence,
    ::testing::Values(
        PreambleCase{"sample", "samples/upstream", {"merge_attn_states"}, {}},
        PreambleCase{"multi_op", "tests/fixtures/upstream/multi_op", {"scale", "fused_fwd"}, {}},
        PreambleCase{"pybind_mod", "tests/fixtures/upstream/pybind_mod", {"gelu"}, {}},
        PreambleCase{"sibling_headers", "tests/fixtures/upstream/sibling_headers", {"gelu"}, {}},
        PreambleCase{"template_launch", "tests/fixtures/upstream/template_launch", {"axpy"}, {}},
        PreambleCase{
            "header_bodies", "tests/fixtures/upstream/header_bodies", {"hb::ops::gemm"}, {}},
        PreambleCase{"preamble_runs",
                     PreambleRuns,
                     {"pr::scale"},
                     {"-isystem", PreambleRuns + "/third_party/widelib"}}),
    [](const ::testing::TestParamInfo<PreambleCase> &Info) { return Info.param.Name; });

/// Two TUs share the preamble on each side; the TU that defines a macro
/// before the same includes, and the one starting with a tree header, parse
/// without it.
TEST(Preamble, OnlyTUsStartingWithTheSharedRunUseIt) {
  PreambleCase C{"preamble_runs", PreambleRuns, {"pr::scale"}, {}};
  nlohmann::json With = analyze(
      C, true, {"-isystem", stubArgs().back(), "-isystem", PreambleRuns + "/third_party/widelib"},
      {});
  EXPECT_EQ(With["stats"]["parses_with_preamble"], 4) << With["stats"].dump(1);
  ASSERT_EQ(With["stats"]["preambles"].size(), 2u) << With["stats"].dump(1);
  for (const auto &Note : With["stats"]["preambles"])
    EXPECT_NE(Note.get<std::string>().find(": built in"), std::string::npos) << Note;
  EXPECT_EQ(With["partial"], false) << With["partial_reasons"].dump(1);
}

/// A cache named relative to the working folder holds the preambles too
/// (they are built from files in it).
TEST(Preamble, ARelativeCacheDirHoldsThePreamble) {
  // Relative to the working folder (the source tree), but in a temporary folder.
  std::string Cache = std::filesystem::relative(makeTempDir()).string();
  ASSERT_NE(Cache.front(), '/') << Cache;
  std::vector<std::string> Args = {"analyze",    "--source",
                                   PreambleRuns, "--entry",
                                   "pr::scale",  "--format",
                                   "json",       "--cache-dir",
                                   Cache,        "--",
                                   "-isystem",   stubArgs().back(),
                                   "-isystem",   PreambleRuns + "/third_party/widelib"};
  ToolResult Result = runOpmig(Args);
  std::filesystem::remove_all(Cache);
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Stats = Result.json()["stats"];
  EXPECT_EQ(Stats["parses_with_preamble"], 4) << Stats.dump(1);
  for (const auto &Note : Stats["preambles"])
    EXPECT_NE(Note.get<std::string>().find(": built in"), std::string::npos) << Note;
}

/// Little memory: the parses and the preamble builds run one at a time, and
/// the JSON says why; the facts stay those of an unbounded run.
TEST(Preamble, MemoryCapsHowManyRunAtOnce) {
  PreambleCase C{"preamble_runs", PreambleRuns, {"pr::scale"}, {}};
  std::vector<std::string> Clang = {"-isystem", stubArgs().back(), "-isystem",
                                    PreambleRuns + "/third_party/widelib"};
  nlohmann::json Capped = analyze(C, true, Clang, {"OPMIG_MEMORY_AVAILABLE_MIB=300"});
  std::vector<std::string> Notes = Capped["stats"]["concurrency"];
  ASSERT_FALSE(Notes.empty()) << Capped["stats"].dump(1);
  bool Builds = false, Parses = false;
  for (const std::string &Note : Notes) {
    EXPECT_NE(Note.find(" at a time (-j"), std::string::npos) << Note;
    EXPECT_NE(Note.find("0.3 GiB available, ~0.2 GiB per "), std::string::npos) << Note;
    Builds = Builds || Note.starts_with("1 preamble build at a time");
    Parses = Parses || Note.starts_with("1 parse at a time");
  }
  EXPECT_TRUE(Builds && Parses) << Capped["stats"].dump(1);
  EXPECT_EQ(Capped["stats"]["parses_with_preamble"], 4) << Capped["stats"].dump(1);
  expectSameFacts(Capped, analyze(C, false, Clang, {}));
}

} // namespace
} // namespace opmig::test
