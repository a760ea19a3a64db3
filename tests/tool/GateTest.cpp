//===- GateTest.cpp - `opmig gate` end to end -----------------------------===//
//
// A gate config per test, the built-in rules replaced through
// OPMIG_RULES_DIR by rules the test writes: each exit code, the SARIF and
// JUnit reports (config paths and command-line overrides), a baseline,
// `fail-on`, the rules-test check, and config errors with their line.
//
//===----------------------------------------------------------------------===//

#include "ToolRunner.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <map>

namespace opmig::test {
namespace {

namespace fs = std::filesystem;

const char *const AbsPathRule = R"(id: demo-abs-path
severity: error
profiles: [demo]
kind: text
files: ["docs/**/*.md"]
message: "machine-local path"
fix: "use a repository-relative path"
spec: "do not write machine-local absolute paths"
match:
  regex: "/home/[a-z]+"
tests: [fixtures/demo-abs-path]
)";

const char *const TodoRule = R"(id: demo-todo
severity: warning
profiles: [demo]
kind: text
files: ["**/*.py"]
message: "leftover TODO"
fix: "finish it or file an issue"
spec: "no TODOs in shipped code"
match:
  regex: "TODO"
)";

/// Rules standing in for the built-in ones: `<dir>/audit/demo/*.yaml`, the
/// abs-path rule with a fixture whose `ruleid:` line is `FiringLine`.
/// Returns the `OPMIG_RULES_DIR=` setting.
std::string writeRules(bool WithTodo, const std::string &FiringLine = "/home/alice") {
  std::string Dir = makeTempDir() + "/rules";
  writeFile(Dir + "/audit/demo/demo-abs-path.yaml", AbsPathRule);
  writeFile(Dir + "/audit/demo/tests/fixtures/demo-abs-path/docs/a.md",
            "<!-- ruleid: demo-abs-path -->\n" + FiringLine +
                "\nrelative/path <!-- ok: demo-abs-path -->\n");
  if (WithTodo)
    writeFile(Dir + "/audit/demo/demo-todo.yaml", TodoRule);
  return "OPMIG_RULES_DIR=" + Dir;
}

std::string writeTree(const std::map<std::string, std::string> &Files) {
  std::string Root = makeTempDir() + "/repo";
  fs::create_directories(Root);
  for (auto &[Path, Text] : Files)
    writeFile(Root + "/" + Path, Text);
  return Root;
}

TEST(GateToolTest, CleanTreePassesAndWritesTheConfiguredReports) {
  std::string Root = writeTree({{".opmig.yaml", "profile: demo\nchecks: [audit]\n"
                                                "sarif: out/opmig.sarif\njunit: out/junit.xml\n"},
                                {"docs/a.md", "relative/path\n"}});
  ToolResult R = runOpmig({"gate", Root}, {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.Stdout, "0 findings: 0 new, 0 baselined, 0 suppressed (1 rules, 2 files)\n"
                      "gate: passed\n");
  nlohmann::json Sarif = nlohmann::json::parse(readFile(Root + "/out/opmig.sarif"));
  EXPECT_EQ(Sarif["version"], "2.1.0");
  EXPECT_TRUE(Sarif["runs"][0]["results"].empty());
  EXPECT_NE(readFile(Root + "/out/junit.xml")
                .find("<testcase classname=\"opmig-gate\" name=\"demo-abs-path\"/>"),
            std::string::npos);
}

TEST(GateToolTest, NewFindingFailsAndLandsInSarifAndJUnit) {
  std::string Root =
      writeTree({{".opmig.yaml", "profile: demo\n"}, {"docs/a.md", "see\n/home/alice\n"}});
  std::string Out = makeTempDir();
  ToolResult R =
      runOpmig({"gate", Root, "--sarif", Out + "/gate.sarif", "--junit", Out + "/gate.xml"},
               {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_EQ(R.Stdout, "docs/a.md:2:1: error: machine-local path [demo-abs-path]\n"
                      "  fix: use a repository-relative path\n"
                      "1 findings: 1 new, 0 baselined, 0 suppressed (1 rules, 2 files)\n"
                      "demo-abs-path: 1 new, 0 baselined, 0 suppressed\n"
                      "gate: failed (1 new at or above error)\n");
  nlohmann::json Results =
      nlohmann::json::parse(readFile(Out + "/gate.sarif"))["runs"][0]["results"];
  ASSERT_EQ(Results.size(), 1u);
  EXPECT_EQ(Results[0]["ruleId"], "demo-abs-path");
  std::string JUnit = readFile(Out + "/gate.xml");
  EXPECT_NE(JUnit.find("<failure type=\"error\" message=\"1 new finding(s)\">"
                       "docs/a.md:2:1: error: machine-local path [demo-abs-path]\n</failure>"),
            std::string::npos)
      << JUnit;
}

TEST(GateToolTest, ExcludedFilesReportNothing) {
  std::string Root = writeTree({{".opmig.yaml", "profile: demo\nexclude: [\"docs/fixtures/**\"]\n"},
                                {"docs/fixtures/planted/a.md", "/home/alice\n"},
                                {"docs/b.md", "/home/bob\n"}});
  ToolResult R = runOpmig({"gate", Root}, {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_EQ(R.Stdout.rfind("docs/b.md:1:1: error: machine-local path [demo-abs-path]\n", 0), 0u)
      << R.Stdout;
  EXPECT_EQ(R.Stdout.find("planted"), std::string::npos) << R.Stdout;
}

TEST(GateToolTest, BaselinedFindingPasses) {
  std::string Rules = writeRules(false);
  std::string Root = writeTree(
      {{".opmig.yaml", "profile: demo\nbaseline: known.json\n"}, {"docs/a.md", "/home/alice\n"}});
  std::string RulesDir = Rules.substr(Rules.find('=') + 1) + "/audit";
  ToolResult Write = runOpmig({"audit", Root, "--rules", RulesDir, "--profile", "demo",
                               "--write-baseline", Root + "/known.json"});
  ASSERT_EQ(Write.ExitCode, 0) << Write.Stderr;
  ToolResult R = runOpmig({"gate", Root}, {Rules});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_NE(R.Stdout.find("demo-abs-path: 0 new, 1 baselined, 0 suppressed\ngate: passed\n"),
            std::string::npos)
      << R.Stdout;
}

TEST(GateToolTest, FailOnDecidesWhetherAWarningFails) {
  std::string Rules = writeRules(true);
  std::string Lenient =
      writeTree({{".opmig.yaml", "profile: demo\nfail-on: error\n"}, {"src/a.py", "# TODO\n"}});
  std::string Strict =
      writeTree({{".opmig.yaml", "profile: demo\nfail-on: warning\n"}, {"src/a.py", "# TODO\n"}});
  ToolResult R = runOpmig({"gate", Lenient}, {Rules});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_NE(R.Stdout.find("demo-todo: 1 new, 0 baselined, 0 suppressed\ngate: passed\n"),
            std::string::npos)
      << R.Stdout;
  R = runOpmig({"gate", Strict}, {Rules});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("gate: failed (1 new at or above warning)\n"), std::string::npos)
      << R.Stdout;
}

TEST(GateToolTest, RulesTestCheckPassesOnGoodFixtures) {
  std::string Root = writeTree({{".opmig.yaml", "profile: demo\nchecks: [rules-test]\n"}});
  ToolResult R = runOpmig({"gate", Root}, {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(R.Stdout, "rule tests: 1 of 1 rules pass their fixtures\n"
                      "gate: passed\n");
}

TEST(GateToolTest, RuleFailingItsFixturesFailsTheGate) {
  std::string Root = writeTree({{".opmig.yaml", "profile: demo\nchecks: [audit, rules-test]\n"}});
  std::string Out = makeTempDir();
  // The fixture expects a finding on a line the rule does not match.
  ToolResult R = runOpmig({"gate", Root, "--junit", Out + "/gate.xml"},
                          {writeRules(false, "nothing machine-local here")});
  EXPECT_EQ(R.ExitCode, 1) << R.Stderr;
  EXPECT_NE(R.Stdout.find("rule tests: 0 of 1 rules pass their fixtures\n"
                          "gate: failed ("),
            std::string::npos)
      << R.Stdout;
  EXPECT_NE(R.Stdout.find(": error: rule demo-abs-path fails its fixtures: "), std::string::npos)
      << R.Stdout;
  EXPECT_NE(readFile(Out + "/gate.xml").find("name=\"opmig-rule-test\">"), std::string::npos);
}

TEST(GateToolTest, BadConfigExitsTwoNamingTheLineAndColumn) {
  struct Case {
    std::string Config, Expected;
  };
  std::vector<Case> Cases = {
      {"profile: demo\nchekcs: [audit]\n",
       ".opmig.yaml:2:1: unknown key 'chekcs' in the gate config; did you mean 'checks'?"},
      {"profile: demo\ncolour: blue\n",
       ".opmig.yaml:2:1: unknown key 'colour' in the gate config; known keys: baseline, checks, "
       "exclude, fail-on, junit, profile, review, rules, sarif, validate"},
      {"profile: demo\nexclude: [\"/abs/**\"]\n", ".opmig.yaml:2:11: bad glob '/abs/**': "},
      {"fail-on: fatal\n",
       ".opmig.yaml:1:1: 'fail-on' must be error, warning or note, not 'fatal'"},
      {"profile: demo\nchecks: [audit, lint]\n",
       ".opmig.yaml:2:17: unknown check 'lint'; expected audit, review, rules-test or validate"},
      {"profile: [demo]\n", ".opmig.yaml:1:1: 'profile' must be a string"},
      {"checks: [review]\nreview:\n  domain: auto\n",
       ".opmig.yaml:3:3: unknown key 'domain' in 'review'; did you mean 'domains'?"},
      {"checks: [review]\nreview:\n  domains: some\n",
       ".opmig.yaml:3:3: 'review.domains' must be auto or a list of domain names"},
      {"checks: [review]\nreview:\n  domains: auto\n  compile-check: sometimes\n",
       ".opmig.yaml:4:3: 'review.compile-check' must be true or false"},
      {"checks: [validate]\nvalidate:\n  layer: [build]\n",
       ".opmig.yaml:3:3: unknown key 'layer' in 'validate'; did you mean 'layers'?"},
      {"checks: [validate]\nvalidate:\n  domains: every\n",
       ".opmig.yaml:3:3: 'validate.domains' must be auto or a list of domain names"},
      {"checks: [validate]\nvalidate:\n  layers: build\n",
       ".opmig.yaml:3:3: 'validate.layers' must be a list of strings"},
      {"checks: [validate]\nvalidate:\n  layers: [build, smok]\n",
       ".opmig.yaml: validate.layers: unknown validation layer 'smok'"},
  };
  std::string Rules = writeRules(false);
  for (const Case &C : Cases) {
    std::string Root = writeTree({{".opmig.yaml", C.Config}});
    ToolResult R = runOpmig({"gate", Root}, {Rules});
    EXPECT_EQ(R.ExitCode, 2) << C.Config;
    EXPECT_NE(R.Stderr.find(Root + "/" + C.Expected), std::string::npos) << R.Stderr;
  }
}

TEST(GateToolTest, MissingConfigOrUnknownProfileExitsTwo) {
  std::string Rules = writeRules(false);
  ToolResult R = runOpmig({"gate", writeTree({{"a.md", "x\n"}})}, {Rules});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("/.opmig.yaml: "), std::string::npos) << R.Stderr;
  std::string Root = writeTree({{".opmig.yaml", "profile: nosuch\n"}});
  R = runOpmig({"gate", Root}, {Rules});
  EXPECT_EQ(R.ExitCode, 2);
  // The gate names the config key where the audit names its flag.
  EXPECT_NE(R.Stderr.find("unknown profile 'nosuch' (`profile:` in " + Root + "/.opmig.yaml)"),
            std::string::npos)
      << R.Stderr;
}

TEST(GateToolTest, ExplicitConfigFileIsUsed) {
  std::string Root = writeTree({{"docs/a.md", "/home/alice\n"}});
  std::string Config = makeTempDir() + "/gate.yaml";
  writeFile(Config, "profile: demo\nbaseline: none.json\n");
  ToolResult R = runOpmig({"gate", Root, "--config", Config}, {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("/none.json' (`baseline:` in " + Config + "): "), std::string::npos)
      << R.Stderr;
  writeFile(Root + "/other.json", "{\"schema\": \"other\"}");
  writeFile(Config, "profile: demo\nbaseline: other.json\n");
  R = runOpmig({"gate", Root, "--config", Config}, {writeRules(false)});
  EXPECT_EQ(R.ExitCode, 2);
  // The gate writes no baseline; the audit does.
  EXPECT_NE(R.Stderr.find("record one from the audit's findings (opmig audit --write-baseline)"),
            std::string::npos)
      << R.Stderr;
}

} // namespace
} // namespace opmig::test
