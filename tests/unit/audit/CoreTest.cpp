//===- CoreTest.cpp - Rules, globs, suppressions, baselines, reports ------===//

#include "../report/SampleFindings.h"
#include "opmig/audit/Audit.h"
#include "opmig/audit/AuditReport.h"
#include "opmig/audit/Baseline.h"
#include "opmig/audit/Checker.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/audit/RuleTests.h"
#include "opmig/audit/Suppressions.h"
#include "opmig/audit/ValidationCoverage.h"
#include "opmig/report/FindingText.h"
#include "opmig/support/Errors.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace opmig::audit {
namespace {

namespace fs = std::filesystem;

/// A temporary folder removed with the test.
class TempDir {
public:
  TempDir() {
    std::string Template = (fs::temp_directory_path() / "opmig-core-XXXXXX").string();
    Path = mkdtemp(Template.data());
  }
  ~TempDir() { fs::remove_all(Path); }
  std::string write(const std::string &Relative, const std::string &Content) const {
    fs::path Full = fs::path(Path) / Relative;
    fs::create_directories(Full.parent_path());
    std::ofstream(Full, std::ios::binary) << Content;
    return Full.string();
  }
  std::string Path;
};

std::string errorText(llvm::Error E) { return llvm::toString(std::move(E)); }

/// The error message of loading `Text` as rules folder/<Name>.
std::string loadError(const std::string &Name, const std::string &Text) {
  TempDir Dir;
  Dir.write("demo/" + Name, Text);
  auto Rules = loadRules({Dir.Path + "/demo"}, "");
  if (Rules)
    return "(loaded)";
  std::string Message = errorText(Rules.takeError());
  // Messages start with the file's path; keep its name for readable checks.
  size_t At = Message.find("demo/");
  return At == std::string::npos ? Message : Message.substr(At);
}

const char *const TextRule = R"(id: demo-abs-path
severity: error
profiles: [demo]
kind: text
files: ["docs/**/*.md"]
message: "machine-local path {match}"
fix: "use a repository-relative path"
spec: "do not write machine-local absolute paths"
match:
  regex: "/home/[a-z]+"
)";

llvm::Expected<std::vector<Rule>> rulesFrom(const TempDir &Dir,
                                            const std::map<std::string, std::string> &Files) {
  for (auto &[Name, Text] : Files)
    Dir.write("rules/demo/" + Name, Text);
  return loadRules({Dir.Path + "/rules"}, "");
}

/// Audits `Tree` (a fresh temp tree) with `RuleFiles`.
AuditResult auditTree(const std::map<std::string, std::string> &RuleFiles,
                      const std::map<std::string, std::string> &Tree) {
  TempDir Rules, Root;
  for (auto &[Path, Text] : Tree)
    Root.write(Path, Text);
  auto Loaded = rulesFrom(Rules, RuleFiles);
  EXPECT_TRUE(!!Loaded) << (Loaded ? "" : errorText(Loaded.takeError()));
  auto Repo = Repository::open(Root.Path);
  EXPECT_TRUE(!!Repo);
  auto Result = auditRepository(*Repo, Loaded ? *Loaded : std::vector<Rule>());
  EXPECT_TRUE(!!Result);
  return Result ? *Result : AuditResult();
}

/// `file:line rule state` per finding, for compact comparisons.
std::vector<std::string> summary(const AuditResult &R) {
  std::vector<std::string> Out;
  for (const Finding &F : R.Findings)
    Out.push_back(F.File + ":" + std::to_string(F.Line) + " " + F.Id + " " + toString(F.State));
  return Out;
}

using Strings = std::vector<std::string>;

// --- Loading rules ---------------------------------------------------------

TEST(RuleLoaderTest, LoadsAValidRuleWithItsFields) {
  TempDir Dir;
  auto Rules = rulesFrom(Dir, {{"demo-abs-path.yaml", TextRule}});
  ASSERT_TRUE(!!Rules) << errorText(Rules.takeError());
  ASSERT_EQ(Rules->size(), 1u);
  const Rule &R = Rules->front();
  EXPECT_EQ(R.Id, "demo-abs-path");
  EXPECT_EQ(R.Level, Severity::Error);
  EXPECT_EQ(R.Kind, "text");
  EXPECT_EQ(R.Files, Strings{"docs/**/*.md"});
  EXPECT_EQ(R.Match["regex"], "/home/[a-z]+");
  EXPECT_EQ(R.MatchLocations.at("regex").Line, 10u);
  EXPECT_EQ(R.MatchLocations.at("regex").Column, 3u);
  EXPECT_EQ(R.Line, 1u);
}

TEST(RuleLoaderTest, ReadsJsonRuleFilesWithLines) {
  TempDir Dir;
  auto Rules = rulesFrom(Dir, {{"demo-json.json", R"({
  "id": "demo-json", "severity": "note", "profiles": ["demo"], "kind": "text",
  "files": ["*.md"], "message": "m", "fix": "f", "spec": "s",
  "match": {
    "regex": "x\\d"
  }
})"}});
  ASSERT_TRUE(!!Rules) << errorText(Rules.takeError());
  EXPECT_EQ(Rules->front().Match["regex"], "x\\d");
  EXPECT_EQ(Rules->front().MatchLocations.at("regex").Line, 5u);
}

TEST(RuleLoaderTest, BadYamlNamesFileAndLine) {
  EXPECT_EQ(loadError("demo-x.yaml", "id: demo-x\nseverity: [error\nkind: text\n").substr(0, 19),
            "demo/demo-x.yaml:3:");
}

TEST(RuleLoaderTest, DeepNestingIsAnErrorNotAStackOverflow) {
  for (const std::string &Deep :
       {"id: x\nmatch: " + std::string(100000, '[') + std::string(100000, ']') + "\n",
        "id: x\nmatch:\n" + [] {
          std::string Block; // `- - - ...`: one level per two bytes, in block style.
          for (int I = 0; I < 50000; ++I)
            Block += "- ";
          return Block + "x\n";
        }()}) {
    auto R = parseRule(Deep, "deep.yaml");
    ASSERT_FALSE(bool(R));
    std::string Message = llvm::toString(R.takeError());
    EXPECT_EQ(Message.rfind("deep.yaml:", 0), 0u) << Message;
    EXPECT_NE(Message.find(": nested deeper than 64 levels"), std::string::npos) << Message;
  }
}

TEST(ValidationLayersTest, DeepLayersFileIsAnErrorNamingIt) {
  std::string Path = std::filesystem::temp_directory_path().string() + "/opmig-deep-layers.yaml";
  std::ofstream(Path) << "layers:\n  - " << std::string(100000, '[') << std::string(100000, ']')
                      << "\n";
  llvm::Expected<ValidationLayers> Layers = loadValidationLayers(Path);
  std::filesystem::remove(Path);
  ASSERT_FALSE(bool(Layers));
  EXPECT_EQ(llvm::toString(Layers.takeError()), Path + ":2:68: nested deeper than 64 levels");
}

TEST(RuleLoaderTest, SecondDocumentWithoutAPlaceIsNoCrash) {
  // Found by fuzz_yaml: an empty node after `---` points past the buffer.
  std::string Text("  - - - - - - \n\n[\n\n/\n\n- - \r \n\n/\n\n\n--\xff\xff\xff\xff - - \xdd ");
  auto R = parseRule(Text, "fuzzed.yaml");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()).rfind("fuzzed.yaml:", 0), 0u);
}

TEST(RuleLoaderTest, ExemptionsNeedASentenceAndAPlace) {
  std::string Base = std::string(TextRule) + "exemptions:\n";
  EXPECT_EQ(loadError("demo-abs-path.yaml", Base + "  - id: quoted\n    paths: [\"docs/**\"]\n"),
            "demo/demo-abs-path.yaml:12:5: an exemption needs a non-empty string 'spec'");
  EXPECT_EQ(loadError("demo-abs-path.yaml", Base + "  - id: quoted\n    spec: \"x\"\n"),
            "demo/demo-abs-path.yaml:12:5: exemption 'quoted' must say where it applies: 'paths', "
            "'outside' or 'captures'");
  EXPECT_EQ(
      loadError("demo-abs-path.yaml",
                Base + "  - id: quoted\n    spec: \"x\"\n    captures: {match: \"(\"}\n"),
      "demo/demo-abs-path.yaml:14:16: bad regex for capture 'match': parentheses not balanced");
  EXPECT_EQ(loadError("demo-abs-path.yaml", Base + "  - id: quoted\n    spec: \"x\"\n    paths: "
                                                   "[\"a/**\"]\n  - id: quoted\n    spec: \"y\"\n"
                                                   "    paths: [\"b/**\"]\n"),
            "demo/demo-abs-path.yaml:15:5: duplicate exemption id 'quoted'");
}

TEST(AuditTest, ExemptedFindingsAreSetApart) {
  TempDir Dir;
  Dir.write("rules/demo/demo-abs-path.yaml",
            std::string(TextRule) + "exemptions:\n  - id: quoted-to-forbid\n    captures: "
                                    "{context: \"Do not\"}\n    spec: \"do not write ...\"\n");
  Dir.write("tree/docs/a.md", "# Build\n\nFrom /home/alice.\n\n## Do not\n\n- /home/bob\n");
  auto Rules = loadRules({Dir.Path + "/rules"}, "");
  ASSERT_TRUE(bool(Rules)) << errorText(Rules.takeError());
  auto Repo = Repository::open(Dir.Path + "/tree");
  ASSERT_TRUE(bool(Repo));
  auto Result = auditRepository(*Repo, *Rules);
  ASSERT_TRUE(bool(Result));
  ASSERT_EQ(Result->Findings.size(), 1u);
  EXPECT_EQ(Result->Findings[0].Line, 3u);
  ASSERT_EQ(Result->Exempted.size(), 1u);
  EXPECT_EQ(Result->Exempted[0].Line, 7u);
  EXPECT_EQ(Result->Exempted[0].Exemption, "quoted-to-forbid");
}

TEST(RuleLoaderTest, UnknownKeyNamesItsLine) {
  std::string Text = TextRule;
  Text.insert(Text.find("kind:"), "colour: red\n");
  EXPECT_EQ(loadError("demo-abs-path.yaml", Text),
            "demo/demo-abs-path.yaml:4:1: unknown key 'colour' in the rule; known keys: id, "
            "severity, profiles, kind, files, exclude, message, fix, spec, match, exemptions, "
            "tests");
  Text.replace(Text.find("colour: red"), 11, "severty: error");
  EXPECT_EQ(loadError("demo-abs-path.yaml", Text),
            "demo/demo-abs-path.yaml:4:1: unknown key 'severty' in the rule; did you mean "
            "'severity'?");
}

TEST(RuleLoaderTest, UnknownKindNamesItsLine) {
  std::string Text = TextRule;
  Text.replace(Text.find("kind: text"), 10, "kind: regexp");
  EXPECT_EQ(loadError("demo-abs-path.yaml", Text),
            "demo/demo-abs-path.yaml:4:1: unknown kind 'regexp'; expected one of: cpp, "
            "doc-reference, path, python, text");
}

TEST(RuleLoaderTest, BadRegexNamesTheLineOfTheRegex) {
  std::string Text = TextRule;
  Text.replace(Text.find("/home/[a-z]+"), 12, "(unclosed");
  std::string Message = loadError("demo-abs-path.yaml", Text);
  EXPECT_EQ(Message.substr(0, 74),
            "demo/demo-abs-path.yaml:10:3: rule 'demo-abs-path': bad regex '(unclosed' ");
}

TEST(RuleLoaderTest, UnknownMatchKeyNamesItsLine) {
  std::string Text = std::string(TextRule) + "  regx: \"a\"\n";
  EXPECT_EQ(loadError("demo-abs-path.yaml", Text),
            "demo/demo-abs-path.yaml:11:3: unknown key 'regx' in 'match' of a text rule; did you "
            "mean 'regex'?");
}

TEST(RuleLoaderTest, BadGlobAndBadSeverityAndMissingKey) {
  std::string Glob = TextRule;
  Glob.replace(Glob.find("docs/**/*.md"), 12, "docs/[.md");
  EXPECT_NE(loadError("demo-abs-path.yaml", Glob).find("demo-abs-path.yaml:5:9: bad glob"),
            std::string::npos);
  std::string Level = TextRule;
  Level.replace(Level.find("severity: error"), 15, "severity: fatal");
  EXPECT_EQ(
      loadError("demo-abs-path.yaml", Level),
      "demo/demo-abs-path.yaml:2:1: unknown severity 'fatal'; expected error, warning or note");
  std::string NoFix = TextRule;
  NoFix.erase(NoFix.find("fix:"), NoFix.find("spec:") - NoFix.find("fix:"));
  EXPECT_EQ(loadError("demo-abs-path.yaml", NoFix),
            "demo/demo-abs-path.yaml:1:1: missing required key 'fix' in the rule");
}

TEST(RuleLoaderTest, IdMustMatchFileNameAndFamily) {
  EXPECT_EQ(loadError("demo-other.yaml", TextRule),
            "demo/demo-other.yaml:1:1: rule id 'demo-abs-path' must equal the file name "
            "'demo-other'");
  std::string Foreign = TextRule;
  Foreign.replace(Foreign.find("profiles: [demo]"), 16, "profiles: [cache-dit]");
  // The folder `demo` still gives the family.
  EXPECT_EQ(loadError("demo-abs-path.yaml", Foreign), "(loaded)");
  std::string NoFamily = Foreign;
  NoFamily.replace(NoFamily.find("id: demo-abs-path"), 17, "id: abs-path");
  EXPECT_NE(loadError("abs-path.yaml", NoFamily).find("must start with its family"),
            std::string::npos);
}

TEST(RuleLoaderTest, DuplicateIdsNameBothFiles) {
  TempDir Dir;
  Dir.write("a/demo/demo-abs-path.yaml", TextRule);
  Dir.write("b/demo/demo-abs-path.yml", TextRule);
  auto Rules = loadRules({Dir.Path + "/a", Dir.Path + "/b"}, "");
  ASSERT_FALSE(!!Rules);
  llvm::Error E = Rules.takeError();
  EXPECT_TRUE(E.isA<InputError>());
  std::string Message = errorText(std::move(E));
  EXPECT_NE(Message.find("b/demo/demo-abs-path.yml:1: duplicate rule id 'demo-abs-path' (also in "),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("a/demo/demo-abs-path.yaml:1)"), std::string::npos) << Message;
}

TEST(RuleLoaderTest, SkipsFixtureFoldersAndReportsMissingPaths) {
  TempDir Dir;
  Dir.write("demo/demo-abs-path.yaml", TextRule);
  Dir.write("demo/tests/fixtures/x/config.yaml", "not: [a rule\n");
  auto Rules = loadRules({Dir.Path}, "");
  ASSERT_TRUE(!!Rules) << errorText(Rules.takeError());
  EXPECT_EQ(Rules->size(), 1u);
  auto Missing = loadRules({Dir.Path + "/nope"}, "");
  ASSERT_FALSE(!!Missing);
  EXPECT_EQ(errorText(Missing.takeError()), "rules path '" + Dir.Path + "/nope' does not exist");
  auto NoBuiltin = loadRules({}, Dir.Path + "/absent");
  ASSERT_FALSE(!!NoBuiltin);
  // The library names the folder; the driver adds how to name another.
  EXPECT_EQ(errorText(NoBuiltin.takeError()),
            "built-in rules folder '" + Dir.Path + "/absent' does not exist");
}

TEST(RuleLoaderTest, ProfilesSelectRules) {
  Rule R;
  R.Profiles = {"cache-dit"};
  EXPECT_TRUE(inProfile(R, "cache-dit"));
  EXPECT_FALSE(inProfile(R, "veomni"));
  EXPECT_TRUE(inProfile(R, "any"));
  R.Profiles = {"any"};
  EXPECT_TRUE(inProfile(R, "veomni"));
}

// --- Globs, regexes, placeholders -------------------------------------------

TEST(PathGlobTest, StarStaysInItsSegmentAndDoubleStarCrosses) {
  Rule R;
  R.Files = {"src/*.py", "docs/**/*.md"};
  R.Exclude = {"docs/drafts/**"};
  EXPECT_TRUE(appliesTo(R, "src/a.py"));
  EXPECT_FALSE(appliesTo(R, "src/pkg/a.py"));
  EXPECT_TRUE(appliesTo(R, "docs/a.md"));
  EXPECT_TRUE(appliesTo(R, "docs/x/y/a.md"));
  EXPECT_FALSE(appliesTo(R, "docs/drafts/a.md"));
  EXPECT_FALSE(appliesTo(R, "other/docs/a.md"));
}

TEST(PathGlobTest, FolderOnlyGlobsAndBraces) {
  auto Glob = PathGlob::create("csrc/kernels/*/");
  ASSERT_TRUE(!!Glob);
  EXPECT_TRUE(Glob->directoryOnly());
  EXPECT_TRUE(Glob->match("csrc/kernels/attn", true));
  EXPECT_FALSE(Glob->match("csrc/kernels/attn", false));
  auto Braces = PathGlob::create("src/**/_*.{py,pyi}");
  ASSERT_TRUE(!!Braces);
  EXPECT_TRUE(Braces->match("src/k/_attn.pyi"));
  EXPECT_FALSE(Braces->match("src/k/attn.py"));
  auto Absolute = PathGlob::create("/etc/*");
  ASSERT_FALSE(!!Absolute);
  EXPECT_EQ(errorText(Absolute.takeError()),
            "glob '/etc/*' is absolute; globs are relative to the audited root");
}

TEST(RegexSyntaxTest, TranslatesCommonEscapes) {
  EXPECT_EQ(translateRegex("^_fake_\\w+$"), "^_fake_[_[:alnum:]]+$");
  EXPECT_EQ(translateRegex("(?:a|b)\\d[\\d_]\\S"), "(a|b)[0-9][0-9_][^[:space:]]");
  EXPECT_EQ(translateRegex("(?P<number>[0-9]+)"), "([0-9]+)");
  EXPECT_TRUE(compileRegex("^_fake_\\w+$").match("_fake_merge_2"));
  EXPECT_FALSE(compileRegex("^_fake_\\w+$").match("_fake_"));
  EXPECT_EQ(regexError("\\bword"),
            "'\\b' is not supported (POSIX extended regex with \\d \\s \\w)");
  EXPECT_TRUE(regexError("(x").has_value());
  EXPECT_FALSE(regexError("a\\.b").has_value());
}

TEST(CheckerTest, FillsKnownPlaceholdersOnly) {
  EXPECT_EQ(fillPlaceholders("`{name}` must be `_fake_{op}` {x}", {{"name", "_"}, {"op", "m"}}),
            "`_` must be `_fake_m` {x}");
  EXPECT_EQ(fillPlaceholders("{{op}}", {{"op", "m"}}), "{m}");
  auto Checkers = builtinCheckers();
  std::vector<std::string> Kinds;
  for (const auto &C : Checkers)
    Kinds.push_back(C->kind());
  EXPECT_EQ(Kinds, (Strings{"cpp", "doc-reference", "path", "python", "text"}));
}

// --- Checkers: path, text, doc-reference ------------------------------------

const char *const PathRule = R"(id: demo-layout
severity: error
profiles: [demo]
kind: path
message: "{path} breaks the layout"
fix: "see the spec"
spec: "one CUDA path; each domain has a binding"
exclude: ["src/kernels/triton/README.md"]
match:
  forbid: ["src/kernels/triton/", "src/kernels/backend.py", "src/**/*_triton.py"]
  require: ["csrc/kernels/{domain}/binding.cpp", "setup.py"]
  domains: "csrc/kernels/*/"
)";

TEST(PathCheckerTest, ForbiddenAndRequiredPathsFire) {
  AuditResult R =
      auditTree({{"demo-layout.yaml", PathRule}}, {{"src/kernels/triton/kernel.py", ""},
                                                   {"src/kernels/backend.py", ""},
                                                   {"src/a/b/x_triton.py", ""},
                                                   {"csrc/kernels/attn/binding.cpp", ""},
                                                   {"csrc/kernels/quant/q.cu", ""}});
  EXPECT_EQ(
      summary(R),
      (Strings{"csrc/kernels/quant/binding.cpp:0 demo-layout new", "setup.py:0 demo-layout new",
               "src/a/b/x_triton.py:0 demo-layout new", "src/kernels/backend.py:0 demo-layout new",
               "src/kernels/triton:0 demo-layout new"}));
  EXPECT_EQ(R.Findings[0].Message, "csrc/kernels/quant/binding.cpp breaks the layout");
}

TEST(PathCheckerTest, CleanTreeAndExcludedPathsDoNotFire) {
  AuditResult R =
      auditTree({{"demo-layout.yaml", PathRule}}, {{"setup.py", ""},
                                                   {"src/kernels/attn.py", ""},
                                                   {"src/kernels/triton_notes.md", ""},
                                                   {"csrc/kernels/attn/binding.cpp", ""}});
  EXPECT_EQ(summary(R), Strings{});
}

TEST(PathCheckerTest, RejectsDomainsWithoutOneStar) {
  std::string Text = PathRule;
  Text.replace(Text.find("\"csrc/kernels/*/\""), 17, "\"csrc/*/*/\"");
  EXPECT_EQ(loadError("demo-layout.yaml", Text),
            "demo/demo-layout.yaml:12:3: rule 'demo-layout': each 'domains' glob must have exactly "
            "one '*' and no other wildcard, e.g. csrc/kernels/*/");
}

TEST(TextCheckerTest, EveryMatchIsAFindingAtItsLineAndColumn) {
  std::string Rule = std::string(TextRule) + "  ignore-regex: \"example-only\"\n";
  AuditResult R = auditTree({{"demo-abs-path.yaml", Rule}},
                            {{"docs/guide.md", "intro\nsee /home/alice and /home/bob\n"
                                               "/home/carol (example-only)\n"},
                             {"notes.md", "/home/dave\n"}});
  ASSERT_EQ(summary(R),
            (Strings{"docs/guide.md:2 demo-abs-path new", "docs/guide.md:2 demo-abs-path new"}));
  EXPECT_EQ(R.Findings[0].Column, 5u);
  EXPECT_EQ(R.Findings[0].Message, "machine-local path /home/alice");
  EXPECT_EQ(R.Findings[1].Column, 21u);
}

TEST(TextCheckerTest, AnchoredRegexMatchesOncePerLine) {
  std::string Rule = TextRule;
  Rule.replace(Rule.find("\"/home/[a-z]+\""), 14, "\"^x\"");
  AuditResult R = auditTree({{"demo-abs-path.yaml", Rule}}, {{"docs/a.md", "xxx\nyx\n"}});
  EXPECT_EQ(summary(R), Strings{"docs/a.md:1 demo-abs-path new"});
}

const char *const DocRule = R"yaml(id: demo-cites
severity: warning
profiles: [demo]
kind: doc-reference
files: ["docs/*.md"]
message: "{problem}"
fix: "cite the item about {topics}"
spec: "cross-references point at what they claim"
match:
  cites: "rule #([0-9]+)"
  source: "docs/rules.md"
  item: "^([0-9]+)\\. (.*)$"
  topics: [npu, guard, fake, namespace]
)yaml";

const char *const RulesDoc = "# Rules\n\n1. Fakes are named _fake_<op>.\n"
                             "2. Guard every NPU import\n   behind is_torch_npu_available.\n"
                             "3. One torch.library namespace.\n";

TEST(DocReferenceCheckerTest, FlagsDriftedAndDanglingCitations) {
  AuditResult R =
      auditTree({{"demo-cites.yaml", DocRule}},
                {{"docs/rules.md", RulesDoc},
                 {"docs/guide.md", "NPU imports are guarded (rule #2). Fakes follow rule #1.\n"
                                   "The namespace is fixed\nby rule #1. See rule #9 too.\n"
                                   "Style follows rule #3.\n"}});
  ASSERT_EQ(summary(R),
            (Strings{"docs/guide.md:3 demo-cites new", "docs/guide.md:3 demo-cites new"}));
  EXPECT_EQ(R.Findings[0].Message, "cites rule #1 for namespace but item 1 of docs/rules.md is "
                                   "about: Fakes are named _fake_<op>.");
  EXPECT_EQ(R.Findings[0].Fix, "cite the item about namespace");
  EXPECT_EQ(R.Findings[1].Message, "cites rule #9 but docs/rules.md has no item 9");
}

TEST(DocReferenceCheckerTest, MissingSourceIsAFindingAtEachCitation) {
  AuditResult R =
      auditTree({{"demo-cites.yaml", DocRule}}, {{"docs/guide.md", "text\nSee rule #4.\n"}});
  ASSERT_EQ(summary(R), Strings{"docs/guide.md:2 demo-cites new"});
  EXPECT_EQ(R.Findings[0].Message, "cites rule #4 but docs/rules.md does not exist");
}

// --- Suppressions -----------------------------------------------------------

TEST(SuppressionsTest, ParsesCommentFormsAndReasons) {
  auto S = findSuppressions("x = 1  # opmig: allow(a-b, c-d) kept for v1\n"
                            "// opmig: allow(e-f)\n"
                            "<!-- opmig: allow(g-h) vendored -->\n"
                            "s = \"opmig: allow(i-j) in a string\"\n",
                            "f.py");
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(S[0].RuleIds, (Strings{"a-b", "c-d"}));
  EXPECT_EQ(S[0].Reason, "kept for v1");
  EXPECT_EQ(S[1].Line, 2u);
  EXPECT_EQ(S[1].Reason, "");
  EXPECT_EQ(S[2].Reason, "vendored");
}

TEST(SuppressionsTest, SuppressesOnItsLineAndTheNextAndReportsMisuse) {
  AuditResult R =
      auditTree({{"demo-abs-path.yaml", TextRule}},
                {{"docs/a.md", "/home/a <!-- opmig: allow(demo-abs-path) quoted from a log -->\n"
                               "<!-- opmig: allow(demo-abs-path) the example below is literal -->\n"
                               "/home/b\n"
                               "/home/c <!-- opmig: allow(demo-abs-path) -->\n"
                               "<!-- opmig: allow(demo-abs-path) nothing here -->\n"
                               "<!-- opmig: allow(other-rule) not run, so not reported -->\n"}});
  EXPECT_EQ(summary(R),
            (Strings{"docs/a.md:1 demo-abs-path suppressed", "docs/a.md:3 demo-abs-path suppressed",
                     // A suppression finding is about the whole line (column 0): it sorts first.
                     "docs/a.md:4 opmig-suppression-without-reason new",
                     "docs/a.md:4 demo-abs-path new", "docs/a.md:5 opmig-unused-suppression new"}));
  EXPECT_EQ(R.Findings[0].Reason, "quoted from a log");
  EXPECT_EQ(R.Findings[3].Level, Severity::Error);
  EXPECT_EQ(R.Findings[4].Level, Severity::Warning);
}

// --- Fingerprints and baselines ---------------------------------------------

TEST(FingerprintTest, StableWhenLinesAreInsertedAboveAndDistinctPerOccurrence) {
  std::map<std::string, std::string> Rules = {{"demo-abs-path.yaml", TextRule}};
  AuditResult Before = auditTree(Rules, {{"docs/a.md", "/home/x\nok\n/home/x\n"}});
  AuditResult After =
      auditTree(Rules, {{"docs/a.md", "new line\n\nmore\n/home/x\nok\nadded\n/home/x\n"}});
  ASSERT_EQ(Before.Findings.size(), 2u);
  ASSERT_EQ(After.Findings.size(), 2u);
  EXPECT_EQ(Before.Findings[0].Fingerprint, After.Findings[0].Fingerprint);
  EXPECT_EQ(Before.Findings[1].Fingerprint, After.Findings[1].Fingerprint);
  EXPECT_NE(Before.Findings[0].Fingerprint, Before.Findings[1].Fingerprint);
  EXPECT_EQ(Before.Findings[0].Fingerprint.size(), 16u);
  AuditResult Edited = auditTree(Rules, {{"docs/a.md", "/home/y\nok\n/home/x\n"}});
  EXPECT_NE(Edited.Findings[0].Fingerprint, Before.Findings[0].Fingerprint);
}

TEST(BaselineTest, RoundTripMarksKnownFindings) {
  std::vector<Finding> Findings(3);
  Findings[0].Id = "r-a", Findings[0].File = "b.py", Findings[0].Fingerprint = "ffff";
  Findings[1].Id = "r-b", Findings[1].File = "a.py", Findings[1].Fingerprint = "0000";
  Findings[2].Fingerprint = "suppressed", Findings[2].State = FindingState::Suppressed;
  std::string Text = serializeBaseline(Findings);
  EXPECT_EQ(Text, "{\n  \"schema\": \"opmig.baseline/1\",\n  \"findings\": [\n    {\n"
                  "      \"file\": \"a.py\",\n      \"fingerprint\": \"0000\",\n"
                  "      \"rule\": \"r-b\"\n    },\n    {\n      \"file\": \"b.py\",\n"
                  "      \"fingerprint\": \"ffff\",\n      \"rule\": \"r-a\"\n    }\n  ]\n}\n");
  auto Known = parseBaseline(Text, "base.json");
  ASSERT_TRUE(!!Known);
  EXPECT_EQ(*Known, (std::set<std::string>{"0000", "ffff"}));
  std::vector<Finding> Later(2);
  Later[0].Fingerprint = "ffff";
  Later[1].Fingerprint = "1234";
  applyBaseline(*Known, Later);
  EXPECT_EQ(Later[0].State, FindingState::Baselined);
  EXPECT_EQ(Later[1].State, FindingState::New);
  EXPECT_TRUE(hasFailures(Later, Severity::Error));
  auto Bad = parseBaseline("{\"schema\": \"other\"}", "base.json");
  ASSERT_FALSE(!!Bad);
  EXPECT_EQ(errorText(Bad.takeError()), "the baseline 'base.json' is not an opmig.baseline/1 "
                                        "document; record one from the audit's findings");
}

TEST(BaselineTest, FailOnComparesSeverities) {
  std::vector<Finding> Findings(1);
  Findings[0].Level = Severity::Warning;
  EXPECT_FALSE(hasFailures(Findings, Severity::Error));
  EXPECT_TRUE(hasFailures(Findings, Severity::Warning));
  EXPECT_TRUE(hasFailures(Findings, Severity::Note));
  Findings[0].State = FindingState::Baselined;
  EXPECT_FALSE(hasFailures(Findings, Severity::Note));
}

// --- The audit's reports ---------------------------------------------------

AuditResult sampleResult() {
  AuditResult R;
  R.Root = "repo";
  R.Profile = "demo";
  R.FilesAudited = 4;
  Rule Rl;
  Rl.Id = "demo-abs-path";
  Rl.Level = Severity::Error;
  Rl.Kind = "text";
  Rl.Profiles = {"demo"};
  Rl.Message = "machine-local path {match}";
  Rl.Fix = "use a repository-relative path";
  Rl.Spec = "do not write machine-local absolute paths";
  R.Rules = {Rl};
  R.Findings = report::sampleFindings();
  return R;
}

TEST(AuditReportTest, TextListsFindingsThenASummary) {
  // The finding lines are reporting's (FindingTextTest); the audit adds its summary.
  AuditResult R = sampleResult();
  EXPECT_EQ(renderText(R), report::renderFindingsText(R.Findings) +
                               "4 findings: 2 new, 1 baselined, 1 suppressed (1 rules, 4 files)\n");
}

TEST(AuditReportTest, JsonHasSchemaRulesFindingsAndSummary) {
  nlohmann::json Doc = nlohmann::json::parse(renderJson(sampleResult()));
  EXPECT_EQ(Doc["schema"], "opmig.audit/1");
  EXPECT_EQ(Doc["profile"], "demo");
  EXPECT_EQ(Doc["rules"][0]["id"], "demo-abs-path");
  EXPECT_EQ(Doc["rules"][0]["spec"], "do not write machine-local absolute paths");
  ASSERT_EQ(Doc["findings"].size(), 4u);
  EXPECT_EQ(Doc["findings"][0],
            nlohmann::json::parse(R"({"rule": "demo-abs-path", "severity": "error",
              "file": "docs/my guide.md", "line": 3, "column": 5,
              "message": "machine-local path /home/a", "fix": "use a repository-relative path",
              "fingerprint": "aaaaaaaaaaaaaaaa", "state": "new"})"));
  EXPECT_EQ(Doc["findings"][2]["state"], "suppressed");
  EXPECT_EQ(Doc["findings"][2]["reason"], "quoted log");
  EXPECT_EQ(Doc["summary"], nlohmann::json::parse(R"({"files": 4, "rules": 1, "new": 2,
              "baselined": 1, "suppressed": 1, "exempted": 0,
              "new_by_severity": {"error": 1, "warning": 1, "note": 0}})"));
}

TEST(AuditReportTest, SarifDescribesTheRulesThatRanAndTheAuditsOwn) {
  nlohmann::json Log = nlohmann::json::parse(renderSarif(sampleResult(), "9.9.9"));
  const nlohmann::json &Run = Log["runs"][0];
  const nlohmann::json &Rules = Run["tool"]["driver"]["rules"];
  ASSERT_EQ(Rules.size(), 2u);
  EXPECT_EQ(Rules[0]["id"], "demo-abs-path");
  EXPECT_EQ(Rules[0]["shortDescription"]["text"], "machine-local path {match}");
  EXPECT_EQ(Rules[0]["fullDescription"]["text"], "do not write machine-local absolute paths");
  EXPECT_EQ(Rules[0]["help"]["text"], "use a repository-relative path");
  EXPECT_EQ(Rules[0]["properties"]["tags"], nlohmann::json::parse(R"(["demo"])"));
  // The audit's own rule, described although no rule file has it.
  EXPECT_EQ(Rules[1]["id"], "opmig-unused-suppression");
  EXPECT_EQ(Rules[1]["defaultConfiguration"]["level"], "warning");
  EXPECT_EQ(Rules[1]["help"]["text"],
            "remove the suppression, or move it onto the finding's line or the line above");
  EXPECT_EQ(Run["results"].size(), 4u);
  EXPECT_EQ(Run["results"][3]["ruleIndex"], 1);
  EXPECT_EQ(Run["properties"], nlohmann::json::parse(R"({"profile": "demo",
              "totalResults": 4, "truncated": false})"));
}

TEST(AuditReportTest, JUnitHasATestcasePerRuleThatRan) {
  std::string Xml = renderJUnit(sampleResult(), "opmig audit");
  EXPECT_NE(Xml.find("<testsuites name=\"opmig audit\" tests=\"2\" failures=\"1\">"),
            std::string::npos);
  EXPECT_NE(Xml.find("<failure type=\"error\" message=\"1 new finding(s)\">docs/my guide.md:3:5: "
                     "error: machine-local path /home/a [demo-abs-path]\n</failure>"),
            std::string::npos);
}

// --- Rule tests -------------------------------------------------------------

TEST(RuleTestsTest, AnnotatedFixturesPassAndDriftFails) {
  TempDir Dir;
  std::string Rule = std::string(TextRule) + "tests: [fixtures/demo-abs-path/]\n";
  Dir.write("demo/demo-abs-path.yaml", Rule);
  Dir.write("demo/tests/fixtures/demo-abs-path/docs/a.md",
            "<!-- ruleid: demo-abs-path -->\n/home/alice\n"
            "/home/bob <!-- ruleid: demo-abs-path -->\n"
            "relative/path <!-- ok: demo-abs-path -->\n");
  auto Rules = loadRules({Dir.Path + "/demo"}, "");
  ASSERT_TRUE(!!Rules) << errorText(Rules.takeError());
  auto Outcomes = runRuleTests(*Rules);
  ASSERT_TRUE(!!Outcomes);
  ASSERT_EQ(Outcomes->size(), 1u);
  EXPECT_EQ((*Outcomes)[0].Failures, Strings{});
  EXPECT_EQ((*Outcomes)[0].Expectations, 3u);

  // A line the rule fires on but nobody annotated, an `ok:` that fires and
  // an expected finding that does not come.
  std::string Fixture = Dir.Path + "/demo/tests/fixtures/demo-abs-path";
  Dir.write("demo/tests/fixtures/demo-abs-path/docs/a.md",
            "/home/alice\n/home/bob <!-- ok: demo-abs-path -->\n"
            "fine <!-- ruleid: demo-abs-path -->\n");
  Outcomes = runRuleTests(*Rules);
  ASSERT_TRUE(!!Outcomes);
  EXPECT_EQ((*Outcomes)[0].Failures,
            (Strings{Fixture + "/docs/a.md:2: demo-abs-path fired on a place marked ok: "
                               "machine-local path /home/bob",
                     Fixture + "/docs/a.md:3: expected demo-abs-path here, got no finding",
                     Fixture + "/docs/a.md:1: unexpected demo-abs-path finding (annotate it "
                               "with ruleid: demo-abs-path if it is meant): machine-local path "
                               "/home/alice"}));
}

TEST(RuleTestsTest, PathRulesUseExpectFilesAndRulesNeedBothKinds) {
  TempDir Dir;
  std::string Rule = std::string(PathRule) + "tests: [fixtures/demo-layout]\n";
  Dir.write("demo/demo-layout.yaml", Rule);
  std::string Fixture = "demo/tests/fixtures/demo-layout/";
  Dir.write(Fixture + "EXPECT", "# planted\nruleid: demo-layout src/kernels/backend.py\n"
                                "ruleid: demo-layout csrc/kernels/quant/binding.cpp\n"
                                "ok: demo-layout csrc/kernels/attn/binding.cpp\n");
  Dir.write(Fixture + "setup.py", "");
  Dir.write(Fixture + "src/kernels/backend.py", "");
  Dir.write(Fixture + "csrc/kernels/attn/binding.cpp", "");
  Dir.write(Fixture + "csrc/kernels/quant/q.cu", "");
  auto Rules = loadRules({Dir.Path + "/demo"}, "");
  ASSERT_TRUE(!!Rules) << errorText(Rules.takeError());
  auto Outcomes = runRuleTests(*Rules);
  ASSERT_TRUE(!!Outcomes);
  EXPECT_EQ((*Outcomes)[0].Failures, Strings{});

  Dir.write(Fixture + "EXPECT", "ruleid: demo-layout src/kernels/backend.py\n"
                                "ruleid: demo-layout csrc/kernels/quant/binding.cpp\n");
  Outcomes = runRuleTests(*Rules);
  ASSERT_TRUE(!!Outcomes);
  ASSERT_EQ((*Outcomes)[0].Failures.size(), 1u);
  EXPECT_NE((*Outcomes)[0].Failures[0].find("fixtures need at least one 'ruleid: demo-layout' "
                                            "and one 'ok: demo-layout' annotation (found 2 and 0)"),
            std::string::npos);
}

TEST(RuleTestsTest, RuleWithoutTestsFails) {
  TempDir Dir;
  Dir.write("demo/demo-abs-path.yaml", TextRule);
  auto Rules = loadRules({Dir.Path + "/demo"}, "");
  ASSERT_TRUE(!!Rules);
  auto Outcomes = runRuleTests(*Rules);
  ASSERT_TRUE(!!Outcomes);
  EXPECT_EQ((*Outcomes)[0].Failures,
            Strings{Dir.Path + "/demo/demo-abs-path.yaml:1: rule has no tests; list fixture "
                               "folders under 'tests'"});
}

} // namespace
} // namespace opmig::audit
