#include "opmig/support/Errors.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

constexpr InputName Source{"test.Source"};
constexpr InputName Force{"test.Force"};

/// The spelling a command would give, in brackets, for the two inputs above.
std::string bracketed(const InputText &Text) {
  return Text.render([](InputName Input) -> std::string {
    return Input == Source ? " [--src]" : Input == Force ? " [force: true]" : "";
  });
}

InputText messageOf(llvm::Error E) {
  InputText Text;
  llvm::handleAllErrors(std::move(E), [&](const InputError &Bad) { Text = Bad.text(); });
  return Text;
}

TEST(ErrorsTest, TheLibraryTextNamesNoSpelling) {
  llvm::Error E = inputError("the source folder '", std::string("/x"), "'", Source,
                             " is missing; or force it", Force);
  EXPECT_EQ(llvm::toString(std::move(E)), "the source folder '/x' is missing; or force it");
}

TEST(ErrorsTest, EachMentionIsSpelledWhereTheTextNamesIt) {
  InputText Text =
      messageOf(inputError("the source folder '/x'", Source, " is missing; or force it", Force));
  ASSERT_EQ(Text.mentions().size(), 2u);
  EXPECT_EQ(Text.mentions()[0].Offset, std::string("the source folder '/x'").size());
  EXPECT_EQ(bracketed(Text),
            "the source folder '/x' [--src] is missing; or force it [force: true]");
}

TEST(ErrorsTest, AnInputTheCallerDoesNotSpellStaysAsWritten) {
  constexpr InputName Other{"test.Other"};
  InputText Text = messageOf(inputError("the other input", Other, " is bad"));
  EXPECT_EQ(bracketed(Text), "the other input is bad");
}

TEST(ErrorsTest, AppendedTextKeepsItsMentions) {
  InputText Gap = messageOf(inputError("a.py is missing; forcing", Force, " creates it"));
  InputText List("2 gaps:\n  ");
  List += Gap;
  List += "\nthe source folder";
  List += Source;
  EXPECT_EQ(bracketed(List), "2 gaps:\n  a.py is missing; forcing [force: true] creates it\n"
                             "the source folder [--src]");
  // An error made of that text keeps them too.
  EXPECT_EQ(bracketed(messageOf(inputError(List, "."))),
            "2 gaps:\n  a.py is missing; forcing [force: true] creates it\n"
            "the source folder [--src].");
}

} // namespace
} // namespace opmig
