// The one reader of config files: JSON and YAML into one located document
// (support/include/opmig/support/ConfigDocument.h).

#include "opmig/support/ConfigDocument.h"

#include "opmig/support/ConfigNode.h"
#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

std::string messageOf(llvm::Error E) { return llvm::toString(std::move(E)); }

/// The parse error of `Text`, or "" when it parses.
std::string parseError(llvm::StringRef Text, ConfigSyntax Syntax) {
  llvm::Expected<ConfigDocument> Doc = parseConfig(Text, Syntax, "f", "test file");
  if (Doc)
    return "";
  llvm::Error E = Doc.takeError();
  EXPECT_TRUE(E.isA<InputError>());
  return messageOf(std::move(E));
}

std::string at(const ConfigDocument &Doc, llvm::StringRef Pointer) {
  ConfigLocation L = Doc.locationOf(Pointer);
  return std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

TEST(ConfigDocumentTest, YamlLocatesEveryKeyAndElement) {
  llvm::Expected<ConfigDocument> Doc = parseConfig("id: x\n"
                                                   "match:\n"
                                                   "  check: regex\n"
                                                   "  list:\n"
                                                   "    - a\n"
                                                   "    - {b: 1}\n",
                                                   ConfigSyntax::Yaml, "r.yaml", "rule");
  ASSERT_TRUE(bool(Doc)) << messageOf(Doc.takeError());
  EXPECT_EQ(Doc->value()["match"]["list"][1]["b"], 1);
  EXPECT_EQ(at(*Doc, "/id"), "1:1");
  EXPECT_EQ(at(*Doc, "/match/check"), "3:3");
  EXPECT_EQ(at(*Doc, "/match/list/0"), "5:7");
  EXPECT_EQ(at(*Doc, "/match/list/1/b"), "6:8");
  EXPECT_EQ(at(*Doc, "/match/nothing/here"), "2:1") << "the nearest located ancestor";
}

TEST(ConfigDocumentTest, YamlScalarsBecomeTypedUnlessQuoted) {
  llvm::Expected<ConfigDocument> Doc =
      parseConfig("a: true\nb: 12\nc: '12'\nd: ~\ne: text\nf: |\n  block\n", ConfigSyntax::Yaml,
                  "f", "test file");
  ASSERT_TRUE(bool(Doc)) << messageOf(Doc.takeError());
  EXPECT_EQ(Doc->value(), nlohmann::json::parse(R"({"a": true, "b": 12, "c": "12", "d": null,
                                                  "e": "text", "f": "block\n"})"));
}

// As JSON reads them; YAML's `.inf` and `.nan` have no JSON value and stay text.
TEST(ConfigDocumentTest, YamlFloatsAreNumbers) {
  llvm::Expected<ConfigDocument> Doc =
      parseConfig("a: 1.5\nb: -2.0e-6\nc: 1e3\nd: '1.5'\ne: .inf\nf: 1.2.3\ng: 1e999\n",
                  ConfigSyntax::Yaml, "f", "test file");
  ASSERT_TRUE(bool(Doc)) << messageOf(Doc.takeError());
  EXPECT_EQ(Doc->value(), nlohmann::json::parse(R"({"a": 1.5, "b": -2.0e-6, "c": 1000.0,
                                                  "d": "1.5", "e": ".inf", "f": "1.2.3",
                                                  "g": "1e999"})"));
}

TEST(ConfigDocumentTest, JsonLocatesEveryKeyAndElement) {
  llvm::Expected<ConfigDocument> Doc = parseConfig("{\n"
                                                   "  \"schema\": \"s\",\n"
                                                   "  \"edits\": [\n"
                                                   "    {\"id\": \"x\"}\n"
                                                   "  ]\n"
                                                   "}\n",
                                                   ConfigSyntax::Json, "p.json", "profile");
  ASSERT_TRUE(bool(Doc)) << messageOf(Doc.takeError());
  EXPECT_EQ(at(*Doc, "/schema"), "2:3");
  EXPECT_EQ(at(*Doc, "/edits/0"), "4:5");
  EXPECT_EQ(at(*Doc, "/edits/0/id"), "4:6");
}

TEST(ConfigDocumentTest, DuplicateKeysAreRejectedInBothSyntaxes) {
  EXPECT_EQ(parseError("a: 1\nb: 2\na: 3\n", ConfigSyntax::Yaml), "f:3:1: duplicate key 'a'");
  EXPECT_EQ(parseError("{\"a\": 1,\n \"a\": 2}", ConfigSyntax::Json), "f:2:2: duplicate key 'a'");
}

TEST(ConfigDocumentTest, MalformedInputIsAnInputErrorWithALocation) {
  EXPECT_EQ(parseError("a: [1, 2\n", ConfigSyntax::Yaml).rfind("f:", 0), 0u);
  EXPECT_EQ(parseError("a: &x 1\nb: *x\n", ConfigSyntax::Yaml),
            "f:2:4: aliases (*name) are not supported in config files");
  EXPECT_EQ(parseError("? [a]\n: 1\n", ConfigSyntax::Yaml),
            "f:1:4: mapping keys must be plain text");
  EXPECT_EQ(parseError("a: 1\n---\nb: 2\n", ConfigSyntax::Yaml),
            "f:3:1: a config file holds one YAML document");
  EXPECT_EQ(parseError("{\"a\": }", ConfigSyntax::Json).rfind("f:1: invalid JSON", 0), 0u);
  std::string Deep = "a: " + std::string(200, '[') + std::string(200, ']') + "\n";
  EXPECT_NE(parseError(Deep, ConfigSyntax::Yaml).find("nested deeper than 64 levels"),
            std::string::npos);
  for (llvm::StringRef Odd : {"\xff\xfe", "---\n---\n", ":", "- - - -", "\"\\u12", "[}"})
    (void)parseError(Odd, ConfigSyntax::Yaml); // Never a crash.
}

TEST(ConfigDocumentTest, AnEmptyYamlFileIsANullDocument) {
  llvm::Expected<ConfigDocument> Doc = parseConfig("# nothing\n", ConfigSyntax::Yaml, "f", "x");
  ASSERT_TRUE(bool(Doc)) << messageOf(Doc.takeError());
  EXPECT_TRUE(Doc->value().is_null());
}

TEST(ConfigDocumentTest, AnUnreadableFileNamesItsPath) {
  llvm::Expected<ConfigDocument> Doc =
      readConfigFile("/nonexistent/opmig.yaml", ConfigSyntax::Yaml, "x");
  ASSERT_FALSE(bool(Doc));
  EXPECT_EQ(messageOf(Doc.takeError()).rfind("cannot read /nonexistent/opmig.yaml: ", 0), 0u);
}

} // namespace
} // namespace opmig
