//===- AnalyzeInputsTest.cpp - Flags, bad inputs and exit codes -----------===//
//
// One test per documented behaviour of the `opmig` driver: each exit code,
// each bad input (with a message naming it), output files, the cache, the
// compile database, partial results and --verify-minimal.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> analyzeArgs(const std::string &Source, const std::string &Entry,
                                     std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"analyze", "--source", Source, "--entry", Entry};
  Args.insert(Args.end(), More.begin(), More.end());
  auto Stubs = stubArgs();
  Args.insert(Args.end(), Stubs.begin(), Stubs.end());
  return Args;
}

std::vector<std::string> filePaths(const nlohmann::json &Doc) {
  std::vector<std::string> Paths;
  for (const auto &File : Doc["files"])
    Paths.push_back(File["path"]);
  return Paths;
}

/// A copy of a fixture tree that a test may change.
std::string copyOfFixture(const std::string &Name) {
  std::string Copy = makeTempDir() + "/tree";
  fs::copy(std::string(OPMIG_SOURCE_DIR) + "/" + fixture(Name), Copy, fs::copy_options::recursive);
  return Copy;
}

TEST(AnalyzeInputs, VersionExitsZero) {
  ToolResult Result = runOpmig({"--version"});
  EXPECT_EQ(Result.ExitCode, 0);
  EXPECT_NE(Result.Stdout.find("opmig 0."), std::string::npos) << Result.Stdout;
}

TEST(AnalyzeInputs, UnknownFlagIsBadUsage) {
  ToolResult Result = runOpmig({"analyze", "--source", "x", "--entry", "y", "--bogus"});
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("--bogus"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, MissingRequiredFlagIsBadUsage) {
  ToolResult Result = runOpmig({"analyze", "--source", "samples/upstream"});
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("--entry"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, StrayValueBeforeSeparatorIsBadUsage) {
  // `--entry a b`: `b` is neither a second entry nor a Clang flag.
  ToolResult Result = runOpmig({"analyze", "--source", "samples/upstream", "--entry", "a", "b"});
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("b"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, CudaPathWithoutToolkitIsBadInput) {
  std::string NotCuda = makeTempDir();
  ToolResult Result =
      runOpmig(analyzeArgs("samples/upstream", "merge_attn_states", {"--cuda-path", NotCuda}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("the CUDA path '" + NotCuda +
                               "' (--cuda-path) has no include/cuda_runtime.h"),
            std::string::npos)
      << Result.Stderr;
}

TEST(AnalyzeInputs, TorchIncludeThatIsNoDirectoryIsBadInput) {
  ToolResult Result = runOpmig(
      analyzeArgs("samples/upstream", "merge_attn_states", {"--torch-include", "no/such/dir"}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("the torch include directory 'no/such/dir' (--torch-include) is "
                               "not a directory"),
            std::string::npos)
      << Result.Stderr;
}

TEST(AnalyzeInputs, MissingSourceNamesIt) {
  ToolResult Result = runOpmig(analyzeArgs("no/such/tree", "f"));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("no/such/tree"), std::string::npos) << Result.Stderr;
  EXPECT_TRUE(Result.Stdout.empty());
}

TEST(AnalyzeInputs, SourceThatIsAFileIsBadInput) {
  ToolResult Result = runOpmig(analyzeArgs("README.md", "f"));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("opmig: error: the source folder 'README.md' (--source) is not a "
                               "readable directory; pass the root of the upstream tree\n"),
            std::string::npos)
      << Result.Stderr;
}

TEST(AnalyzeInputs, TreeWithoutTranslationUnitsIsBadInput) {
  std::string Empty = makeTempDir();
  writeFile(Empty + "/only.h", "int x;\n");
  ToolResult Result = runOpmig(analyzeArgs(Empty, "f"));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("no translation unit"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, UnknownEntrySuggestsNearestNames) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/multi_op"), "scale_opp"));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("nearest names: scale_op"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, AmbiguousEntryListsCandidatesWithLocations) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/ambiguous"), "launch"));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("ambiguous"), std::string::npos) << Result.Stderr;
  EXPECT_NE(Result.Stderr.find("ns_a::launch (csrc/a.cu:"), std::string::npos) << Result.Stderr;
  EXPECT_NE(Result.Stderr.find("ns_b::launch (csrc/b.cu:"), std::string::npos) << Result.Stderr;
  EXPECT_EQ(Result.Stderr.find("launch_extra"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, OpRegisteredThroughTorchFnResolves) {
  ToolResult Result = runOpmig(
      analyzeArgs(fixture("upstream/multi_op"), "fused_add_rms_norm", {"--format", "json"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  EXPECT_EQ(Result.json()["entries"][0]["function"], "fused_add_rms_norm_op");
}

TEST(AnalyzeInputs, MalformedCompileDatabaseNamesTheFile) {
  std::string Tree = fixture("upstream/bad_inputs/bad_compile_db");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "negate", {"-p", Tree}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("compile_commands.json"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, EmptyCompileDatabaseIsBadInput) {
  std::string Tree = fixture("upstream/bad_inputs/empty_compile_db");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "negate", {"-p", Tree}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("compile_commands.json"), std::string::npos) << Result.Stderr;
}

TEST(AnalyzeInputs, MissingBuildDirectoryIsBadInput) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/empty_compile_db"),
                                           "negate", {"-p", "no/such/build"}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("no/such/build"), std::string::npos) << Result.Stderr;
}

/// `WITH_FAST`, defined only by the database, selects the helper header.
TEST(AnalyzeInputs, CompileDatabaseDecidesTheClosure) {
  std::string Root =
      fs::absolute(std::string(OPMIG_SOURCE_DIR) + "/" + fixture("upstream/with_compile_db"))
          .string();
  std::string Build = makeTempDir();
  std::string Template = readFile(Root + "/compile_commands.json.in");
  for (size_t At; (At = Template.find("@ROOT@")) != std::string::npos;)
    Template.replace(At, 6, Root);
  for (size_t At; (At = Template.find(Root + "/build")) != std::string::npos;)
    Template.replace(At, Root.size() + 6, Build);
  writeFile(Build + "/compile_commands.json", Template);

  ToolResult WithDb = runOpmig(analyzeArgs(fixture("upstream/with_compile_db"), "axpy_entry",
                                           {"-p", Build, "--format", "json"}));
  ToolResult Inferred = runOpmig(
      analyzeArgs(fixture("upstream/with_compile_db"), "axpy_entry", {"--format", "json"}));
  ASSERT_EQ(WithDb.ExitCode, 0) << WithDb.Stderr;
  ASSERT_EQ(Inferred.ExitCode, 0) << Inferred.Stderr;
  EXPECT_EQ(filePaths(WithDb.json()),
            (std::vector<std::string>{"csrc/fast_path.cuh", "csrc/k.cu"}));
  EXPECT_EQ(filePaths(Inferred.json()),
            (std::vector<std::string>{"csrc/k.cu", "csrc/slow_path.cuh"}));
}

/// A checked-out submodule stays external: its header is a third-party
/// include, never a closure file, and --verify still finds it.
TEST(AnalyzeInputs, PresentSubmoduleStaysExternal) {
  std::string Tree = copyOfFixture("upstream/multi_op");
  writeFile(Tree + "/third_party/fastlog/fastlog/fastlog.h",
            "#pragma once\n#include <cstdio>\nnamespace fastlog {\ninline void info(const char "
            "*Tag, const char *Msg) { std::printf(\"%s %s\\n\", Tag, Msg); }\n}\n");
  std::vector<std::string> Args = {"analyze", "--source", Tree,   "--entry",
                                   "scale",   "--format", "json", "--verify"};
  auto Stubs = stubArgs();
  Args.insert(Args.end(), Stubs.begin(), Stubs.end());
  Args.insert(Args.end(), {"-I", Tree + "/third_party/fastlog"});
  ToolResult Result = runOpmig(Args);
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  for (const std::string &Path : filePaths(Doc))
    EXPECT_EQ(Path.find("third_party"), std::string::npos) << Path;
  bool Found = false;
  for (const auto &External : Doc["external"])
    if (External["include"] == "fastlog/fastlog.h") {
      Found = true;
      EXPECT_EQ(External["class"], "third_party");
      EXPECT_FALSE(External["resolved"].is_null());
    }
  EXPECT_TRUE(Found) << Doc["external"].dump();
  EXPECT_TRUE(Doc["verify"]["passed"]) << Doc["verify"].dump();
}

/// A TU the database does not list is parsed with inferred flags, and says so.
TEST(AnalyzeInputs, TUMissingFromCompileDatabaseIsParsedWithInferredFlags) {
  std::string Tree = copyOfFixture("upstream/bad_inputs/include_cycle");
  std::string Build = makeTempDir();
  writeFile(Build + "/compile_commands.json",
            "[{\"directory\": \"" + Build + "\", \"file\": \"" + Tree +
                "/csrc/other.cu\", \"command\": \"nvcc -c " + Tree + "/csrc/other.cu\"}]");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "cycle_entry", {"-p", Build, "--format", "json"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/a.h", "csrc/b.h", "csrc/cycle.cu"}));
  bool Warned = false;
  for (const auto &Diag : Doc["diagnostics"])
    Warned |= Diag["rule"] == "not-in-compile-database" && Diag["severity"] == "warning" &&
              Diag["file"] == "csrc/cycle.cu" &&
              Diag["message"] == "not in the compile database; parsed with inferred flags";
  EXPECT_TRUE(Warned) << Doc["diagnostics"].dump();
}

/// Everything in headers: nothing to link, and the verification says so
/// by passing rather than failing on an empty link.
TEST(AnalyzeInputs, HeaderOnlyEntryVerifiesWithoutLinking) {
  std::string Tree = makeTempDir();
  writeFile(Tree + "/csrc/ops.h", "#pragma once\ninline int twice(int V) { return 2 * V; }\n");
  writeFile(Tree + "/csrc/use.cu", "#include \"ops.h\"\nint unrelated() { return 1; }\n");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "twice", {"--format", "json", "--verify"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/ops.h"}));
  EXPECT_TRUE(Doc["verify"]["passed"]) << Doc["verify"].dump();
}

TEST(AnalyzeInputs, SymlinkLoopIsReportedNotFollowed) {
  std::string Tree = copyOfFixture("upstream/bad_inputs/include_cycle");
  fs::create_directory_symlink("..", Tree + "/csrc/loop");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "cycle_entry", {"--format", "json"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/a.h", "csrc/b.h", "csrc/cycle.cu"}));
  bool Reported = false;
  for (const auto &Diag : Doc["diagnostics"])
    Reported |= Diag["rule"] == "skipped-tree-entry" && Diag["file"] == "csrc/loop" &&
                Diag["message"].get<std::string>().find("symbolic link") != std::string::npos;
  EXPECT_TRUE(Reported) << Doc["diagnostics"].dump();
}

/// Binary garbage, NUL bytes, an empty TU and a header including itself:
/// reported, never a crash.
TEST(AnalyzeInputs, MalformedFilesNeverCrash) {
  std::string Tree = makeTempDir();
  std::string Garbage;
  for (int I = 0; I < 4096; ++I)
    Garbage.push_back(static_cast<char>((I * 7919) % 256));
  writeFile(Tree + "/csrc/garbage.cu", Garbage);
  writeFile(Tree + "/csrc/nul.cu",
            std::string("int f() { return 1; }\n\0\0 #include \"x\n#if\n", 36));
  writeFile(Tree + "/csrc/empty.cu", "");
  writeFile(Tree + "/csrc/self.h", "#include \"self.h\"\n");
  writeFile(Tree + "/csrc/e.cu", "#include \"self.h\"\nint entry() { return 0; }\n");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "entry", {"--format", "json"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/e.cu", "csrc/self.h"}));
  EXPECT_TRUE(Doc["partial"]);
  ToolResult Nul = runOpmig(analyzeArgs(Tree, "f", {"--format", "json"}));
  ASSERT_EQ(Nul.ExitCode, 0) << Nul.Stderr;
  EXPECT_EQ(filePaths(Nul.json()), (std::vector<std::string>{"csrc/nul.cu"}));
}

/// The search for a missing definition tries files whose tokens look like
/// one first; a definition no token shows (made by a macro) is still found.
TEST(AnalyzeInputs, DefinitionMadeByAMacroIsStillFound) {
  std::string Tree = makeTempDir();
  writeFile(Tree + "/csrc/ops.h", "#pragma once\nint made(int X);\n");
  writeFile(Tree + "/csrc/macro.h", "#pragma once\n#define DEFINE(N) int N(int X) { return X; }\n");
  writeFile(Tree + "/csrc/impl.cu", "#include \"macro.h\"\nDEFINE(made)\n");
  writeFile(Tree + "/csrc/entry.cu", "#include \"ops.h\"\nint entry() { return made(1); }\n");
  ToolResult Result = runOpmig(analyzeArgs(Tree, "entry", {"--format", "json", "--verify"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/entry.cu", "csrc/impl.cu",
                                                      "csrc/macro.h", "csrc/ops.h"}));
  EXPECT_TRUE(Doc["verify"]["passed"]) << Doc["verify"].dump();
}

TEST(AnalyzeInputs, OutputFileIsWrittenWholeAndStdoutStaysEmpty) {
  std::string Out = makeTempDir() + "/analysis.json";
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"),
                                           "cycle_entry", {"--format", "json", "-o", Out}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  EXPECT_TRUE(Result.Stdout.empty());
  EXPECT_EQ(nlohmann::json::parse(readFile(Out))["schema"], "opmig.analyze/2");
}

/// What is not a plain file is written in place, never replaced by a
/// rename: a symlink stays a link to the file it names, a FIFO stays a FIFO
/// and its reader gets the output (as `/dev/null` must stay the null device).
TEST(AnalyzeInputs, OutputThatIsNoPlainFileIsWrittenInPlace) {
  std::string Dir = makeTempDir();
  writeFile(Dir + "/target.json", "");
  fs::create_symlink(Dir + "/target.json", Dir + "/link.json");
  ToolResult Linked =
      runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"), "cycle_entry",
                           {"--format", "json", "-o", Dir + "/link.json"}));
  ASSERT_EQ(Linked.ExitCode, 0) << Linked.Stderr;
  EXPECT_TRUE(fs::is_symlink(Dir + "/link.json"));
  EXPECT_EQ(nlohmann::json::parse(readFile(Dir + "/target.json"))["schema"], "opmig.analyze/2");

  std::string Fifo = Dir + "/pipe";
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  // A reader held open lets opmig open the FIFO for writing at once; the
  // output (a few KiB) fits in the pipe's buffer, read once opmig is done.
  int Reader = open(Fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(Reader, 0);
  ToolResult Piped = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"),
                                          "cycle_entry", {"--format", "json", "-o", Fifo}));
  std::string Read;
  char Buffer[4096];
  for (ssize_t N; (N = read(Reader, Buffer, sizeof Buffer)) > 0;)
    Read.append(Buffer, N);
  close(Reader);
  ASSERT_EQ(Piped.ExitCode, 0) << Piped.Stderr;
  EXPECT_TRUE(fs::is_fifo(Fifo));
  EXPECT_NE(Read.find("\"opmig.analyze/2\""), std::string::npos) << Read;
}

TEST(AnalyzeInputs, UnwritableOutputIsBadInputAndWritesNothing) {
  std::string Dir = makeTempDir();
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"),
                                           "cycle_entry", {"-o", Dir + "/missing/x.json"}));
  EXPECT_EQ(Result.ExitCode, 2);
  EXPECT_NE(Result.Stderr.find("cannot write output file"), std::string::npos) << Result.Stderr;
  EXPECT_FALSE(fs::exists(Dir + "/missing"));
}

TEST(AnalyzeInputs, DotFormatIsAGraphOfIncludeEdges) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"),
                                           "cycle_entry", {"--format", "dot"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  EXPECT_EQ(Result.Stdout.rfind("digraph closure {", 0), 0u) << Result.Stdout;
  EXPECT_NE(Result.Stdout.find("\"csrc/cycle.cu\" -> \"csrc/a.h\""), std::string::npos)
      << Result.Stdout;
}

TEST(AnalyzeInputs, WarmRunIsAnsweredFromTheCacheAndEditsInvalidateIt) {
  std::string Tree = copyOfFixture("upstream/multi_op");
  std::string Cache = makeTempDir();
  auto Run = [&] {
    ToolResult Result =
        runOpmig(analyzeArgs(Tree, "softcap", {"--format", "json", "--cache-dir", Cache}));
    EXPECT_EQ(Result.ExitCode, 0) << Result.Stderr;
    return Result.json();
  };
  nlohmann::json Cold = Run();
  nlohmann::json Warm = Run();
  EXPECT_GT(Cold["stats"]["parses_run"].get<int>(), 0);
  EXPECT_EQ(Warm["stats"]["parses_run"], 0);
  EXPECT_EQ(Warm["stats"]["parses_cached"], Cold["stats"]["parses_run"]);
  EXPECT_EQ(Warm["files"], Cold["files"]);

  // A header every parse of softcap.cu read: both sides parse again.
  writeFile(Tree + "/csrc/common/exp.cuh", readFile(Tree + "/csrc/common/exp.cuh") + "\n// edit\n");
  nlohmann::json Edited = Run();
  EXPECT_GE(Edited["stats"]["parses_run"].get<int>(), 2);
  EXPECT_EQ(Edited["files"], Cold["files"]);
}

TEST(AnalyzeInputs, NoCacheParsesEverythingAgain) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/include_cycle"),
                                           "cycle_entry", {"--format", "json", "--no-cache"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  EXPECT_EQ(Result.json()["stats"]["parses_cached"], 0);
}

/// --verify needs a scratch directory; without one it is the environment
/// that failed, not the input: exit 3.
TEST(AnalyzeInputs, UnusableTempDirectoryIsAnInternalError) {
  ToolResult Result = runOpmig(
      analyzeArgs(fixture("upstream/bad_inputs/include_cycle"), "cycle_entry", {"--verify"}),
      {"TMPDIR=" + makeTempDir() + "/absent"});
  EXPECT_EQ(Result.ExitCode, 3) << Result.Stderr;
  EXPECT_NE(Result.Stderr.find("scratch directory"), std::string::npos) << Result.Stderr;
  EXPECT_TRUE(Result.Stdout.empty());
}

TEST(AnalyzeInputs, PartialResultNamesWhereClangGaveUp) {
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/partial_parse"), "bucketize_op",
                                           {"--format", "json", "--no-nvcc"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_TRUE(Doc["partial"]);
  EXPECT_TRUE(Doc["nvcc_judged"][0]["judged"] == false) << Doc["nvcc_judged"].dump();
  ASSERT_FALSE(Doc["partial_reasons"].empty());
  EXPECT_NE(Doc["partial_reasons"][0].get<std::string>().find("csrc/bucketize.cu:12"),
            std::string::npos);
  EXPECT_NE(Result.Stderr.find("partial result"), std::string::npos);
}

TEST(AnalyzeInputs, NvccDecidesWhereClangRejects) {
  if (!haveNvcc())
    GTEST_SKIP() << "no nvcc here: the nvcc verdict on Clang's errors is not checked";
  ToolResult Result =
      runOpmig(analyzeArgs(fixture("upstream/partial_parse"), "bucketize_op", {"--verbose"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  EXPECT_NE(Result.Stdout.find("Clang rejects, nvcc compiles (1 TUs"), std::string::npos)
      << Result.Stdout;
  EXPECT_EQ(Result.Stdout.find("PARTIAL"), std::string::npos) << Result.Stdout;
  EXPECT_EQ(Result.Stderr.find("partial result"), std::string::npos) << Result.Stderr;
  EXPECT_NE(Result.Stdout.find("nvcc"), std::string::npos);
}

/// The upstream builds with nvcc, so --verify does too: code only nvcc
/// accepts builds and links; Clang, asked for with --no-nvcc, fails on it.
TEST(AnalyzeInputs, VerifyBuildsWithNvccWhatOnlyNvccCompiles) {
  if (!haveNvcc())
    GTEST_SKIP() << "no nvcc here: --verify builds with Clang, which rejects this fixture";
  std::string Tree = fixture("upstream/partial_parse");
  ToolResult WithNvcc =
      runOpmig(analyzeArgs(Tree, "bucketize_op", {"--format", "json", "--verify"}));
  EXPECT_EQ(WithNvcc.ExitCode, 0) << WithNvcc.Stderr;
  nlohmann::json Verify = WithNvcc.json()["verify"];
  EXPECT_EQ(Verify["compiler"]["name"], "nvcc");
  EXPECT_TRUE(Verify["passed"]) << Verify.dump(2);

  ToolResult WithClang =
      runOpmig(analyzeArgs(Tree, "bucketize_op", {"--format", "json", "--verify", "--no-nvcc"}));
  EXPECT_EQ(WithClang.ExitCode, 1) << WithClang.Stderr;
  Verify = WithClang.json()["verify"];
  EXPECT_EQ(Verify["compiler"]["name"], "clang");
  EXPECT_EQ(Verify["compiler"]["because"], "--no-nvcc");
  EXPECT_FALSE(Verify["compiles"]);
  ASSERT_FALSE(Verify["compile_failures"].empty());
  EXPECT_NE(Verify["compile_failures"][0].get<std::string>().find("csrc/"), std::string::npos);
}

TEST(AnalyzeInputs, VerifyFailureExitsOneAndNamesTheUndefinedSymbol) {
  // A definition made by token pasting: the closure misses its TU.
  ToolResult Result = runOpmig(analyzeArgs(fixture("upstream/bad_inputs/pasted_definition"),
                                           "pasted_op", {"--format", "json", "--verify"}));
  EXPECT_EQ(Result.ExitCode, 1) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(Doc["links_as_copied"], false);
  nlohmann::json Verify = Doc["verify"];
  EXPECT_TRUE(Verify["compiles"]);
  EXPECT_FALSE(Verify["links"]);
  EXPECT_EQ(Verify["undefined_symbols"],
            nlohmann::json({"launch_twice(float*, long) (defined by csrc/launchers.cu)"}));
}

TEST(AnalyzeInputs, VerifyBuildsTheSlicedCopyOfATUWithSiblings) {
  // Copied whole, fused_binding.cpp would not link (its sibling calls a
  // launcher left behind) nor compile (it includes the sibling's header).
  ToolResult Result = runOpmig(
      analyzeArgs(fixture("upstream/multi_op"), "fused_fwd", {"--format", "json", "--verify"}));
  EXPECT_EQ(Result.ExitCode, 0) << Result.Stdout << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(Doc["links_as_copied"], false);
  EXPECT_EQ(Doc["links_after_slicing"], true);
  EXPECT_EQ(Doc["verify"]["passed"], true) << Doc["verify"].dump(2);
}

TEST(AnalyzeInputs, VerifyMinimalFindsNothingToDropInTheSampleClosure) {
  ToolResult Result = runOpmig(analyzeArgs("samples/upstream", "merge_attn_states",
                                           {"--format", "json", "--verify-minimal"}));
  ASSERT_EQ(Result.ExitCode, 0) << Result.Stderr;
  nlohmann::json Verify = Result.json()["verify"];
  EXPECT_TRUE(Verify["passed"]);
  EXPECT_EQ(Verify["unneeded_files"], nlohmann::json::array());
}

/// A class brings all its members, so the TU defining a member nobody calls
/// joins the closure; --verify-minimal shows it could be dropped.
TEST(AnalyzeInputs, VerifyMinimalNamesAFileTheClosureCouldDrop) {
  std::string Tree = copyOfFixture("upstream/bad_inputs/include_cycle");
  writeFile(Tree + "/csrc/widget.h",
            "#pragma once\nnamespace cycle { struct Widget { int v; void reset(); }; }\n");
  writeFile(Tree + "/csrc/widget_reset.cu",
            "#include \"widget.h\"\nvoid cycle::Widget::reset() { v = 0; }\n");
  writeFile(Tree + "/csrc/widget_entry.cu",
            "#include \"widget.h\"\nnamespace cycle {\nint widget_entry() { Widget W{1}; "
            "return W.v; }\n}\n");
  ToolResult Result =
      runOpmig(analyzeArgs(Tree, "widget_entry", {"--format", "json", "--verify-minimal"}));
  EXPECT_EQ(Result.ExitCode, 1) << Result.Stderr;
  nlohmann::json Doc = Result.json();
  EXPECT_EQ(filePaths(Doc), (std::vector<std::string>{"csrc/widget.h", "csrc/widget_entry.cu",
                                                      "csrc/widget_reset.cu"}));
  EXPECT_EQ(Doc["verify"]["unneeded_files"], nlohmann::json({"csrc/widget_reset.cu"}));
}

} // namespace
} // namespace opmig::test
