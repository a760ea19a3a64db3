//===- FailClosedReportTest.cpp - audit, review, gate fail closed (issue 10) -===//
//
// Reports named by .opmig.yaml stay in the repository, a --changed-since
// value is never a git option, bytes that are not UTF-8 reach JSON and
// SARIF, deep YAML is an input error, messages name the option at fault,
// a suppression of an unknown rule is a finding, and the Python helper's
// private folder is gone after a Ctrl-C.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

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

const char *const BadWordRule = R"(id: demo-bad-word
severity: error
profiles: [demo]
kind: text
files: ["**/*.md"]
message: "bad word {match}"
fix: "say it another way"
spec: "no bad words"
match:
  regex: "bad[^ ]*"
)";

/// `<tmp>/rules/audit/demo/demo-bad-word.yaml`; returns the rules folder.
std::string writeRules() {
  std::string Dir = makeTempDir() + "/rules";
  writeFile(Dir + "/audit/demo/demo-bad-word.yaml", BadWordRule);
  return Dir;
}

/// A repository `<tmp>/repo` with `Files`, next to `<tmp>/outside/`.
std::string writeRepo(const std::map<std::string, std::string> &Files) {
  std::string Parent = makeTempDir();
  fs::create_directories(Parent + "/repo");
  fs::create_directories(Parent + "/outside");
  for (auto &[Path, Text] : Files)
    writeFile(Parent + "/repo/" + Path, Text);
  return Parent + "/repo";
}

std::string rulesEnv(const std::string &Rules) { return "OPMIG_RULES_DIR=" + Rules; }

TEST(FailClosedGateTest, ReportPathsFromTheConfigStayInTheRepository) {
  std::string Rules = writeRules();
  for (const char *Line :
       {"sarif: ../outside/x.sarif", "junit: ../outside/x.xml",
        "sarif: /tmp/opmig-gate-escape.sarif", "junit: out/../../outside/j.xml"}) {
    SCOPED_TRACE(Line);
    std::string Root = writeRepo(
        {{".opmig.yaml", std::string("profile: demo\n") + Line + "\n"}, {"docs/a.md", "fine\n"}});
    ToolResult R = runOpmig({"gate", Root}, {rulesEnv(Rules)});
    EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
    EXPECT_TRUE(contains(R.Stderr, ".opmig.yaml: ")) << R.Stderr;
    EXPECT_TRUE(contains(R.Stderr, "name a path inside the repository")) << R.Stderr;
    // The library names the key; the driver adds the flag that writes elsewhere.
    EXPECT_TRUE(
        contains(R.Stderr, ", or pass --" + std::string(Line).substr(0, 5) + " to write elsewhere"))
        << R.Stderr;
    EXPECT_TRUE(fs::is_empty(Root + "/../outside"));
  }
  EXPECT_FALSE(fs::exists("/tmp/opmig-gate-escape.sarif"));
}

TEST(FailClosedGateTest, ReportPathThroughASymlinkIsRefused) {
  std::string Root = writeRepo(
      {{".opmig.yaml", "profile: demo\nsarif: reports/x.sarif\n"}, {"docs/a.md", "fine\n"}});
  fs::create_directory_symlink(Root + "/../outside", Root + "/reports");
  ToolResult R = runOpmig({"gate", Root}, {rulesEnv(writeRules())});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, "passes through the symbolic link")) << R.Stderr;
  EXPECT_TRUE(fs::is_empty(Root + "/../outside"));
}

TEST(FailClosedGateTest, ReportPathOnTheCommandLineStillGoesWhereItSays) {
  std::string Root = writeRepo(
      {{".opmig.yaml", "profile: demo\nsarif: ../outside/x.sarif\n"}, {"docs/a.md", "ok\n"}});
  std::string Out = makeTempDir() + "/gate.sarif";
  ToolResult R = runOpmig({"gate", Root, "--sarif", Out}, {rulesEnv(writeRules())});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_TRUE(fs::exists(Out));
}

TEST(FailClosedGateTest, DeepConfigIsAnInputErrorNamingTheFile) {
  std::string Root = writeRepo(
      {{".opmig.yaml", "review: " + std::string(50000, '[') + std::string(50000, ']') + "\n"}});
  ToolResult R = runOpmig({"gate", Root}, {rulesEnv(writeRules())});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, ".opmig.yaml:1:73: nested deeper than 64 levels")) << R.Stderr;
}

TEST(FailClosedGateTest, MatchThatIsNotUtf8StillGivesSarifAndJUnit) {
  std::string Root = writeRepo({{".opmig.yaml", "profile: demo\nsarif: out/x.sarif\n"},
                                {"docs/a.md", "bad\xff\xfe word\n"}});
  ToolResult R = runOpmig({"gate", Root}, {rulesEnv(writeRules())});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  nlohmann::json Sarif = nlohmann::json::parse(readFile(Root + "/out/x.sarif"), nullptr, false);
  ASSERT_FALSE(Sarif.is_discarded());
  EXPECT_TRUE(contains(Sarif["runs"][0]["results"][0]["message"]["text"].get<std::string>(),
                       "bad\xEF\xBF\xBD\xEF\xBF\xBD"));
}

TEST(FailClosedAuditTest, JsonSarifAndBaselineSurviveBytesThatAreNotUtf8) {
  std::string Root = writeRepo({{"docs/a.md", "bad\xff word\n"}});
  std::string Rules = writeRules() + "/audit";
  for (const char *Format : {"json", "sarif"}) {
    ToolResult R = runOpmig({"audit", Root, "--rules", Rules, "--format", Format});
    EXPECT_EQ(R.ExitCode, 1) << Format << ": " << R.Stderr;
    EXPECT_FALSE(R.json().is_null()) << Format;
  }
  std::string Baseline = makeTempDir() + "/baseline.json";
  ToolResult Write = runOpmig({"audit", Root, "--rules", Rules, "--write-baseline", Baseline});
  EXPECT_EQ(Write.ExitCode, 0) << Write.Stderr;
  ToolResult Read = runOpmig({"audit", Root, "--rules", Rules, "--baseline", Baseline});
  EXPECT_EQ(Read.ExitCode, 0) << "the baseline written is read back: " << Read.Stdout;
}

TEST(FailClosedAuditTest, ChangedSinceIsNeverAGitOption) {
  std::string Root = writeRepo({{"docs/a.md", "fine\n"}});
  ASSERT_EQ(std::system(("git -C '" + Root + "' init -q").c_str()), 0);
  std::string Escape = Root + "/../outside/written-by-git";
  for (const std::string &Ref : {"--output=" + Escape, std::string("-p"), std::string("a\nb")}) {
    ToolResult R =
        runOpmig({"audit", Root, "--rules", writeRules() + "/audit", "--changed-since=" + Ref});
    EXPECT_EQ(R.ExitCode, 2) << Ref;
    EXPECT_TRUE(contains(R.Stderr, "is not a git ref")) << R.Stderr;
  }
  EXPECT_FALSE(fs::exists(Escape));
}

TEST(FailClosedAuditTest, SuppressionOfAnUnknownRuleIsAFinding) {
  std::string Root = writeRepo({{"docs/a.md", "<!-- opmig: allow(demo-bad-wrod) a typo -->\n"
                                              "bad\n"}});
  ToolResult R = runOpmig({"audit", Root, "--rules", writeRules() + "/audit"});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_TRUE(contains(R.Stdout, "docs/a.md:1: warning: suppression of demo-bad-wrod names no "
                                 "known rule"))
      << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "[opmig-unused-suppression]\n")) << R.Stdout;
  EXPECT_TRUE(contains(R.Stdout, "[demo-bad-word]\n")) << "nothing suppressed";
}

TEST(FailClosedAuditTest, DeepRuleFileIsAnInputError) {
  std::string Rules = makeTempDir();
  writeFile(Rules + "/deep.yaml",
            "id: x\nmatch: " + std::string(50000, '[') + std::string(50000, ']') + "\n");
  ToolResult R = runOpmig({"rules", "test", Rules});
  EXPECT_EQ(R.ExitCode, 2) << R.Stdout;
  EXPECT_TRUE(contains(R.Stderr, "deep.yaml:2:72: nested deeper than 64 levels")) << R.Stderr;
}

TEST(FailClosedMessagesTest, ReviewAndGateNameTheOptionThatIsNoDirectory) {
  std::string Missing = makeTempDir() + "/missing";
  ToolResult Target = runOpmig({"review", "--target", Missing, "--domain", "attn"});
  EXPECT_EQ(Target.ExitCode, 2);
  EXPECT_TRUE(contains(Target.Stderr, "--target '" + Missing + "' is not a directory"))
      << Target.Stderr;
  ToolResult Source =
      runOpmig({"review", "--target", ".", "--domain", "attn", "--source", Missing});
  EXPECT_EQ(Source.ExitCode, 2);
  EXPECT_TRUE(contains(Source.Stderr, "--source '" + Missing + "' is not a directory"))
      << Source.Stderr;
  ToolResult Gate = runOpmig({"gate", Missing});
  EXPECT_EQ(Gate.ExitCode, 2);
  EXPECT_TRUE(contains(Gate.Stderr, "repository root '" + Missing + "' (the dir argument)"))
      << Gate.Stderr;
}

TEST(FailClosedPythonTest, InterruptedHelperLeavesNoTemporaryFiles) {
  // A python3 that does not answer (it notes its pid, so the test can end
  // it), so that the signal arrives while opmig waits with the request
  // written.
  std::string Bin = makeTempDir(), Tmp = makeTempDir();
  writeFile(Bin + "/python3", "#!/bin/sh\necho $$ >\"" + Bin + "/python.pid\"\nexec sleep 30\n");
  fs::permissions(Bin + "/python3", fs::perms::owner_all);
  std::string Root = writeRepo({{"veomni/ops/x.py", "import torch_npu\n"}});
  for (const std::string Signal : {"INT", "TERM"}) {
    std::string Script = Bin + "/run-" + Signal + ".sh";
    // Job control, so that the background job does not ignore SIGINT.
    writeFile(Script, "set -m\ncd '" OPMIG_SOURCE_DIR "'\nPATH='" + Bin + ":'\"$PATH\" TMPDIR='" +
                          Tmp + "' '" OPMIG_BINARY "' audit '" + Root +
                          "' --profile veomni >/dev/null 2>&1 &\npid=$!\nsleep 3\nkill -" + Signal +
                          " $pid\nwait $pid\necho $? >'" + Bin + "/status'\n" + "kill \"$(cat '" +
                          Bin + "/python.pid')\" 2>/dev/null\nexit 0\n");
    ASSERT_EQ(std::system(("bash '" + Script + "'").c_str()), 0);
    EXPECT_EQ(readFile(Bin + "/status"), std::to_string(128 + (Signal == "INT" ? 2 : 15)) + "\n")
        << "the signal ends opmig as it would without the cleanup";
    std::vector<std::string> Left;
    for (const fs::directory_entry &E : fs::directory_iterator(Tmp))
      Left.push_back(E.path().filename().string());
    EXPECT_TRUE(Left.empty()) << "SIG" << Signal << " left " << (Left.empty() ? "" : Left.front());
  }
}

} // namespace
} // namespace opmig::test
