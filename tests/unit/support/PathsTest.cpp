#include "opmig/support/Paths.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

TEST(PathsTest, WithinIsTheFolderItselfOrBelowItOnAComponentBoundary) {
  EXPECT_TRUE(isWithin("/src/a", "/src/a"));
  EXPECT_TRUE(isWithin("/src/a/b.h", "/src/a"));
  EXPECT_FALSE(isWithin("/src/ab/c.h", "/src/a"));
  EXPECT_FALSE(isWithin("/src", "/src/a"));
}

TEST(PathsTest, AnEmptyFolderContainsNothing) {
  EXPECT_FALSE(isWithin("/src/a", ""));
  EXPECT_FALSE(isBelow("/src/a", ""));
  EXPECT_FALSE(isWithin("a", ""));
}

TEST(PathsTest, BelowExcludesTheFolderItself) {
  EXPECT_FALSE(isBelow("src/a", "src/a"));
  EXPECT_TRUE(isBelow("src/a/b", "src/a"));
  EXPECT_FALSE(isBelow("src/ab", "src/a"));
}

TEST(PathsTest, ContainedRelativePathsCannotLeaveTheirRoot) {
  EXPECT_TRUE(isContainedRelativePath("csrc/kernels/a.cu"));
  for (const char *Bad :
       {"", "/etc/passwd", "../x", "a/../../x", "a/./b", "a//b", "a\\b", "a/\x01"})
    EXPECT_FALSE(isContainedRelativePath(Bad)) << Bad;
}

TEST(PathsTest, AbsolutePathsLoseDotsAndKeepTheirDirectory) {
  EXPECT_EQ(absolutePath("b/../c.h", "/srv/a"), "/srv/a/c.h");
  EXPECT_EQ(absolutePath("/x/./y", "/srv"), "/x/y");
}

TEST(PathsTest, ReplacePathPrefixTakesWholePathsOnly) {
  EXPECT_EQ(replacePathPrefix("-I/a/b/include", "/a/b", "<root>"), "-I<root>/include");
  EXPECT_EQ(replacePathPrefix("/a/bc/x.h /a/b", "/a/b", "<root>"), "/a/bc/x.h <root>");
  EXPECT_EQ(replacePathPrefix("{\"f\":\"/a/b\"}", "/a/b", "<root>"), "{\"f\":\"<root>\"}");
  EXPECT_EQ(replacePathPrefix(llvm::StringRef("x\0/a/b\0y", 8), "/a/b", "R"),
            std::string("x\0R\0y", 5));
  EXPECT_EQ(replacePathPrefix("/a/b", "", "R"), "/a/b");
}

} // namespace
} // namespace opmig
