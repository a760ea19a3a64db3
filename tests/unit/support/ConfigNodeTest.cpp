// Typed, located reads of a config document and the one unknown-key message
// (support/include/opmig/support/ConfigNode.h).

#include "opmig/support/ConfigNode.h"

#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

std::string messageOf(llvm::Error E) { return llvm::toString(std::move(E)); }

template <typename T> std::string messageOf(llvm::Expected<T> V) {
  return V ? "" : messageOf(V.takeError());
}

ConfigDocument yaml(llvm::StringRef Text) {
  llvm::Expected<ConfigDocument> Doc =
      parseConfig(Text, ConfigSyntax::Yaml, "c.yaml", "gate config");
  EXPECT_TRUE(bool(Doc));
  return Doc ? std::move(*Doc) : ConfigDocument("c.yaml", "gate config", nullptr, {});
}

TEST(ConfigNodeTest, AnUnknownKeyNamesTheCloseKnownOne) {
  ConfigDocument Doc = yaml("profile: any\nchekcs: [audit]\n");
  llvm::Error E = Doc.root().allowKeys({"profile", "checks"});
  EXPECT_TRUE(E.isA<InputError>());
  EXPECT_EQ(messageOf(std::move(E)),
            "c.yaml:2:1: unknown key 'chekcs' in the gate config; did you mean 'checks'?");
}

TEST(ConfigNodeTest, AnUnknownKeyFarFromEveryKnownOneListsThem) {
  ConfigDocument Doc = yaml("review:\n  colour: blue\n");
  EXPECT_EQ(messageOf(Doc.root().member("review").allowKeys({"domains", "compile-check"})),
            "c.yaml:2:3: unknown key 'colour' in 'review'; known keys: domains, compile-check");
}

TEST(ConfigNodeTest, TheFirstUnknownKeyInTheFileIsReported) {
  ConfigDocument Doc = yaml("zzz: 1\naaa: 2\n");
  EXPECT_EQ(messageOf(Doc.root().allowKeys({"b"})).rfind("c.yaml:1:1: unknown key 'zzz'", 0), 0u);
}

TEST(ConfigNodeTest, WrongTypesAreReportedWhereTheValueIs) {
  ConfigDocument Doc = yaml("name: [a]\nflag: yes\nlist:\n  - a\n  - {b: 1}\n");
  ConfigNode Root = Doc.root();
  EXPECT_EQ(messageOf(Root.member("name").string()), "c.yaml:1:1: 'name' must be a string");
  EXPECT_EQ(messageOf(Root.member("flag").boolean()), "c.yaml:2:1: 'flag' must be true or false");
  EXPECT_EQ(messageOf(Root.member("list").strings()),
            "c.yaml:5:6: 'list' must be a list of strings")
      << "a flow collection starts at its first token";
  EXPECT_EQ(messageOf(Root.member("list").expectMapping()), "c.yaml:3:1: 'list' must be a mapping");
  EXPECT_EQ(messageOf(Root.member("list").element(1).member("b").string()),
            "c.yaml:5:6: 'list[1].b' must be a string");
}

TEST(ConfigNodeTest, AMissingRequiredKeyIsReportedAtItsParent) {
  ConfigDocument Doc = yaml("edits:\n  - path: a\n");
  EXPECT_EQ(messageOf(Doc.root().member("edits").element(0).requireKeys({"path", "id"})),
            "c.yaml:2:5: missing required key 'id' in 'edits[0]'");
  EXPECT_EQ(messageOf(Doc.root().requireKeys({"schema"})),
            "c.yaml:1:1: missing required key 'schema' in the gate config");
}

TEST(ConfigNodeTest, OptionalReadsLeaveTheDefaultWhenAbsent) {
  ConfigDocument Doc = yaml("name: x\n");
  std::string Name = "default", Other = "default";
  bool Flag = true;
  EXPECT_FALSE(bool(Doc.root().readString("name", Name)));
  EXPECT_FALSE(bool(Doc.root().readString("other", Other)));
  EXPECT_FALSE(bool(Doc.root().readBool("flag", Flag)));
  EXPECT_EQ(Name, "x");
  EXPECT_EQ(Other, "default");
  EXPECT_TRUE(Flag);
  EXPECT_FALSE(Doc.root().member("other").exists());
}

TEST(ConfigNodeTest, JsonNodesAreLocatedToo) {
  llvm::Expected<ConfigDocument> Doc = parseConfig("{\n  \"includes\": {\"style\": 1}\n}\n",
                                                   ConfigSyntax::Json, "p.json", "profile");
  ASSERT_TRUE(bool(Doc));
  EXPECT_EQ(messageOf(Doc->root().member("includes").member("style").string()),
            "p.json:2:16: 'includes.style' must be a string");
  EXPECT_EQ(messageOf(Doc->root().member("includes").allowKeys({"styles"})),
            "p.json:2:16: unknown key 'style' in 'includes'; did you mean 'styles'?");
}

TEST(ConfigNodeTest, UnknownKeyMessageIsOneWording) {
  EXPECT_EQ(unknownKeyMessage("regx", {"regex", "ignore-regex"}, "'match' of a text rule"),
            "unknown key 'regx' in 'match' of a text rule; did you mean 'regex'?");
  EXPECT_EQ(unknownKeyMessage("x", {}, "'match' of check y"),
            "unknown key 'x' in 'match' of check y; it takes no keys");
}

} // namespace
} // namespace opmig
