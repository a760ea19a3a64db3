// The one JSON writer and the bounded reader (analyzers/include/opmig/support/JsonText.h).

#include "opmig/support/JsonText.h"

#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

std::string messageOf(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(JsonTextTest, InvalidUtf8IsReplacedNotThrown) {
  nlohmann::json J = {{"name", "k\xff\xfe.h"}, {"ok", "caf\xc3\xa9"}};
  EXPECT_TRUE(hasInvalidUtf8(J));
  EXPECT_THROW((void)J.dump(), nlohmann::json::type_error) << "what dumpJson exists for";
  EXPECT_EQ(dumpJson(J), "{\"name\":\"k\xEF\xBF\xBD\xEF\xBF\xBD.h\",\"ok\":\"caf\xc3\xa9\"}");
  EXPECT_FALSE(hasInvalidUtf8(nlohmann::json::parse(dumpJson(J))));
  nlohmann::ordered_json Ordered = {{"b", "\x80"}, {"a", 1}};
  EXPECT_EQ(dumpJson(Ordered, 1), "{\n \"b\": \"\xEF\xBF\xBD\",\n \"a\": 1\n}");
}

TEST(JsonTextTest, NestingBeyondTheLimitIsAnInputErrorWithItsLine) {
  std::string Deep = "{\"a\":\n" + std::string(100000, '[') + std::string(100000, ']') + "}";
  llvm::Expected<nlohmann::json> J = parseJsonText(Deep, "deep.json");
  ASSERT_FALSE(bool(J));
  llvm::Error E = J.takeError();
  EXPECT_TRUE(E.isA<InputError>());
  EXPECT_EQ(messageOf(std::move(E)), "deep.json:2: nested deeper than 64 levels");
  std::string Fine = std::string(60, '[') + std::string(60, ']');
  EXPECT_TRUE(bool(parseJsonText(Fine, "fine.json")));
}

TEST(JsonTextTest, SyntaxErrorsNameTheFileAndLine) {
  llvm::Expected<nlohmann::json> J = parseJsonText("{\n\"a\": [1,\n}", "bad.json");
  ASSERT_FALSE(bool(J));
  std::string Message = messageOf(J.takeError());
  EXPECT_EQ(Message.rfind("bad.json:3: invalid JSON: ", 0), 0u) << Message;
}

TEST(JsonTextTest, NumberTooLargeIsAnInputErrorNotAnException) {
  // Found by fuzz_json: nlohmann throws out_of_range.406, not a parse_error.
  llvm::Expected<nlohmann::json> J = parseJsonText("[1, 7E77777777]", "big.json");
  ASSERT_FALSE(bool(J));
  llvm::Error E = J.takeError();
  EXPECT_TRUE(E.isA<InputError>());
  EXPECT_EQ(messageOf(std::move(E)).rfind("big.json: invalid JSON: ", 0), 0u);
}

TEST(JsonTextTest, NestingDepthIgnoresBracketsInStrings) {
  EXPECT_EQ(jsonNestingDepth(R"([{"a": "[[[[\"]]"}])"), 2u);
  EXPECT_EQ(jsonNestingDepth(""), 0u);
  EXPECT_EQ(jsonNestingDepth(std::string(1000, '[')), 1000u);
}

} // namespace
} // namespace opmig
