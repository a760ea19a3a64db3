// An upstream TU less what migrate left out
// (validators/include/opmig/validate/LeftOutBlanking.h).

#include "opmig/validate/LeftOutBlanking.h"

#include <gtest/gtest.h>

namespace opmig::validate {
namespace {

const std::string Text = "#include \"ops.h\"\n" // 1
                         "#include \"fwd.h\"\n" // 2
                         "int keep() { return 1; }\n"
                         "int fwd() {\n"        // 4
                         "  return launch();\n" // 5
                         "}\n"                  // 6
                         "int tail() { return fwd(); }\n";

LeftOutRange definition(unsigned First, unsigned Last, const std::string &From,
                        const std::string &To, std::vector<std::string> Names) {
  LeftOutRange R;
  R.FirstLine = First;
  R.LastLine = Last;
  R.Begin = Text.find(From);
  R.End = Text.find(To, R.Begin) + To.size();
  R.Definitions = std::move(Names);
  return R;
}

LeftOutRange include(unsigned Line, const std::string &Spelling) {
  LeftOutRange R;
  R.FirstLine = R.LastLine = Line;
  R.Begin = Text.find("#include " + Spelling);
  R.End = Text.find('\n', R.Begin) + 1;
  R.Include = Spelling;
  return R;
}

TEST(LeftOutBlankingTest, BlanksEveryByteButNewlinesSoLinesStay) {
  std::vector<LeftOutRange> Ranges = {include(2, "\"fwd.h\""),
                                      definition(4, 6, "int fwd()", "}\n", {"fwd"})};
  llvm::Expected<std::string> Blanked = blankLeftOut(Text, Ranges, "csrc/b.cpp");
  ASSERT_TRUE(bool(Blanked)) << llvm::toString(Blanked.takeError());
  EXPECT_EQ(*Blanked, "#include \"ops.h\"\n"
                      "                \n"
                      "int keep() { return 1; }\n"
                      "           \n"
                      "                  \n"
                      " \n"
                      "int tail() { return fwd(); }\n");
  EXPECT_EQ(Blanked->size(), Text.size());
}

TEST(LeftOutBlankingTest, APartOfALineIsBlankedAlone) {
  LeftOutRange R = definition(7, 7, "return fwd();", "return fwd();", {"call"});
  llvm::Expected<std::string> Blanked = blankLeftOut(Text, {R}, "b.cpp");
  ASSERT_TRUE(bool(Blanked));
  EXPECT_NE(Blanked->find("int tail() {               }\n"), std::string::npos) << *Blanked;
}

TEST(LeftOutBlankingTest, ARangeThatDoesNotFitTheTextIsAnErrorNamingIt) {
  LeftOutRange Past = definition(4, 6, "int fwd()", "}\n", {"fwd"});
  Past.End = Text.size() + 10;
  LeftOutRange OtherLines = definition(4, 6, "int fwd()", "}\n", {"fwd"});
  OtherLines.FirstLine = 3;
  LeftOutRange NotThatInclude = include(2, "\"fwd.h\"");
  NotThatInclude.Include = "\"bwd.h\"";
  struct Case {
    LeftOutRange Range;
    const char *Message;
  } Cases[] = {
      {Past, "left lines 4-6 (fwd) out of the upstream csrc/b.cpp, but bytes"},
      {OtherLines, "left lines 3-6 (fwd) out of the upstream csrc/b.cpp, but bytes 59-92 are "
                   "lines 4-6 of the file"},
      {NotThatInclude, "left line 2 (#include \"bwd.h\") out of the upstream csrc/b.cpp, but "
                       "that line does not include \"bwd.h\""},
  };
  for (const Case &C : Cases) {
    llvm::Expected<std::string> Blanked = blankLeftOut(Text, {C.Range}, "csrc/b.cpp");
    ASSERT_FALSE(bool(Blanked)) << C.Message;
    std::string Message = llvm::toString(Blanked.takeError());
    EXPECT_NE(Message.find(C.Message), std::string::npos) << Message;
  }
}

TEST(LeftOutBlankingTest, DescribesRangesForNotes) {
  EXPECT_EQ(describeLeftOut({include(2, "\"fwd.h\""),
                             definition(4, 6, "int fwd()", "}\n", {"ns::fwd", "ns::bwd"})}),
            "line 2 (#include \"fwd.h\"); lines 4-6 (ns::fwd, ns::bwd)");
}

} // namespace
} // namespace opmig::validate
