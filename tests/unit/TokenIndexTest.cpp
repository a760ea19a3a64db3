//===- TokenIndexTest.cpp - Tests for the parse-free token index ----------===//
//
// Each test writes a small tree into a fresh temporary directory and reads
// it with readSourceTree, as the analyzer does.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/TokenIndex.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::analyze;

namespace {

using Strings = std::vector<std::string>;

class TokenIndexTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Created, Real;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-tokenindex", Created));
    // The tree names files by real path; expectations must too.
    ASSERT_FALSE(llvm::sys::fs::real_path(Created, Real));
    Root = std::string(Real);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// Writes `Text` to `Relative` (parents created).
  void write(llvm::StringRef Relative, llvm::StringRef Text) {
    std::string File = path(Relative);
    ASSERT_FALSE(llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)));
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC) << File;
    OS << Text;
  }

  std::string path(llvm::StringRef Relative) const { return Root + "/" + Relative.str(); }

  /// Absolute paths of `Relatives`, in the order given.
  Strings paths(std::initializer_list<llvm::StringRef> Relatives) const {
    Strings Result;
    for (llvm::StringRef Relative : Relatives)
      Result.push_back(path(Relative));
    return Result;
  }

  /// Reads the tree written so far; the index keeps no reference to it.
  TokenIndex index(const Strings &IncludeDirs = {}) {
    auto Tree = readSourceTree(Root);
    if (!Tree) {
      ADD_FAILURE() << llvm::toString(Tree.takeError());
      return TokenIndex(SourceTree(), IncludeDirs);
    }
    return TokenIndex(*Tree, IncludeDirs);
  }

  std::string Root;
};

//===----------------------------------------------------------------------===//
// tusCovering
//===----------------------------------------------------------------------===//

TEST_F(TokenIndexTest, CoveringListsTUsMentioningTheNameDirectly) {
  write("a.cpp", "int scale(int X) { return X; }\n");
  write("b.cu", "int other() { return scale(2); }\n");
  write("c.cpp", "int unrelated() { return 0; }\n");
  EXPECT_EQ(index().tusCovering("scale", {}), paths({"a.cpp", "b.cu"}));
}

TEST_F(TokenIndexTest, CoveringDefinitionsSkipsCallersAndDeclarations) {
  write("def.cu", "int scale(int X) { return X; }\n");
  write("call.cu", "int scale(int X);\nint other() { if (scale(2)) { return 1; } return 0; }\n");
  write("member.cpp", "struct W { int V; W(); void reset() const; };\n"
                      "W::W() : V(0) {}\n"
                      "void W::reset() const __attribute__((noinline)) {}\n");
  write("types.h", "struct Params { int N; };\n");
  write("use.cu", "#include \"types.h\"\nint use(Params P) { return P.N; }\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusCoveringDefinitions("scale", {}), paths({"def.cu"}));
  EXPECT_EQ(Index.tusCovering("scale", {}), paths({"call.cu", "def.cu"}));
  EXPECT_EQ(Index.tusCoveringDefinitions("reset", {}), paths({"member.cpp"}));
  EXPECT_EQ(Index.tusCoveringDefinitions("W", {}), paths({"member.cpp"}));
  EXPECT_EQ(Index.tusCoveringDefinitions("Params", {}), paths({"use.cu"}));
  EXPECT_TRUE(Index.tusCoveringDefinitions("other", {paths({"call.cu"})[0]}).empty());
}

TEST_F(TokenIndexTest, CoveringAddsOneTUPerHeaderMentioningTheName) {
  // Both a.cpp and b.cpp see helper.h; one parse of either suffices.
  write("helper.h", "inline int helper() { return 1; }\n");
  write("other.h", "int helper();\n");
  write("a.cpp", "#include \"helper.h\"\n");
  write("b.cpp", "#include \"helper.h\"\n");
  write("c.cpp", "#include \"other.h\"\n");
  EXPECT_EQ(index().tusCovering("helper", {}), paths({"a.cpp", "c.cpp"}));
}

TEST_F(TokenIndexTest, CoveringMatchesOpNamesInSchemaStrings) {
  write("reg.cpp", "void init(Library &m) { m.def(\"ns::scale(Tensor x) -> Tensor\"); }\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusCovering("scale", {}), paths({"reg.cpp"}));
  // The rest of the schema is not an identifier of the file.
  EXPECT_EQ(Index.tusCovering("Tensor", {}), Strings{});
}

TEST_F(TokenIndexTest, CoveringOfUnknownNameIsEmpty) {
  write("a.cpp", "int scale(int X) { return X; }\n");
  EXPECT_EQ(index().tusCovering("scal", {}), Strings{});
}

TEST_F(TokenIndexTest, SkipLeavesOutFilesAlreadyParsed) {
  write("helper.h", "inline int helper() { return 1; }\n");
  write("a.cpp", "#include \"helper.h\"\nint helper2() { return helper(); }\n");
  write("b.cpp", "int user() { return helper(); }\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusCovering("helper", {path("b.cpp")}), paths({"a.cpp"}));
  // What a parse of a.cpp read: the header is covered too.
  EXPECT_EQ(Index.tusCovering("helper", {path("a.cpp"), path("helper.h")}), paths({"b.cpp"}));
}

//===----------------------------------------------------------------------===//
// tusReaching
//===----------------------------------------------------------------------===//

TEST_F(TokenIndexTest, QuotedIncludeIsRelativeToTheIncluder) {
  write("sub/x.cpp", "#include \"y.h\"\n");
  write("sub/y.h", "\n");
  write("y.h", "\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusReaching(path("sub/y.h")), paths({"sub/x.cpp"}));
  EXPECT_EQ(Index.tusReaching(path("y.h")), Strings{});
}

TEST_F(TokenIndexTest, DotDotIncludeIsResolved) {
  write("common/math.h", "\n");
  write("ops/scale.cu", "#include \"../common/math.h\"\n");
  EXPECT_EQ(index().tusReaching(path("common/math.h")), paths({"ops/scale.cu"}));
}

TEST_F(TokenIndexTest, IncludeDirsResolveIncludes) {
  write("csrc/lib/z.h", "\n");
  write("ops/a.cpp", "#include \"lib/z.h\"\n");
  write("ops/b.cpp", "#include <lib/z.h>\n");
  EXPECT_EQ(index().tusReaching(path("csrc/lib/z.h")), Strings{});
  EXPECT_EQ(index({path("csrc")}).tusReaching(path("csrc/lib/z.h")),
            paths({"ops/a.cpp", "ops/b.cpp"}));
}

TEST_F(TokenIndexTest, AngledIncludeIsNotRelativeToTheIncluder) {
  write("a.cpp", "#include <y.h>\n");
  write("y.h", "\n");
  EXPECT_EQ(index().tusReaching(path("y.h")), Strings{});
  EXPECT_EQ(index({Root}).tusReaching(path("y.h")), paths({"a.cpp"}));
}

TEST_F(TokenIndexTest, ReachingIsTransitiveAndTakesAllBranches) {
  write("a.cpp", "#ifdef NEVER\n#include \"h1.h\"\n#endif\n");
  write("h1.h", "#include \"h2.h\"\n");
  write("h2.h", "\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusReaching(path("h2.h")), paths({"a.cpp"}));
  EXPECT_EQ(Index.includeEdgeCount(), 2u);
}

TEST_F(TokenIndexTest, IncludeCyclesTerminate) {
  write("a.h", "#include \"b.h\"\nint cyclic();\n");
  write("b.h", "#include \"a.h\"\n");
  write("t.cpp", "#include \"b.h\"\n");
  TokenIndex Index = index();
  EXPECT_EQ(Index.tusReaching(path("a.h")), paths({"t.cpp"}));
  EXPECT_EQ(Index.tusCovering("cyclic", {}), paths({"t.cpp"}));
}

//===----------------------------------------------------------------------===//
// callableNames
//===----------------------------------------------------------------------===//

TEST_F(TokenIndexTest, CallableNamesAreIdentifiersFollowedByParen) {
  write("a.cpp", "int Value = 2;\n"
                 "int foo(int X) { return bar(X) * baz (Value); }\n");
  EXPECT_EQ(index().callableNames(), (Strings{"bar", "baz", "foo"}));
}

} // namespace
