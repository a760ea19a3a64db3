//===- ObjectCacheTest.cpp - Objects reused only for unchanged inputs -----===//

#include "opmig/support/ObjectCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace opmig {
namespace {

namespace fs = llvm::sys::fs;

void write(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  ASSERT_FALSE(EC) << Path;
  Out << Text;
}

std::string read(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "<absent>";
}

TEST(DependencyFileTest, ListsEveryInputAfterItsTarget) {
  EXPECT_EQ(parseDependencyFile("obj/0-a.cu.o: /t/a.cu /usr/include/b.h \\\n  /t/my\\ dir/c.h\n"),
            (std::vector<std::string>{"/t/a.cu", "/usr/include/b.h", "/t/my dir/c.h"}));
  // nvcc writes a blank before the colon.
  EXPECT_EQ(parseDependencyFile("x.o : x.cu \\\r\n    y.cuh\n\ny.cuh:\n"),
            (std::vector<std::string>{"x.cu", "y.cuh"}));
}

/// A tree with a TU and a header, an "outside" header (the toolkit's), and a
/// compile of the TU that "made" an object and its dependency list.
class ObjectCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("opmig-object-cache", Base));
    Cache = ObjectCache(std::string(Base) + "/cache");
    Outside = std::string(Base) + "/toolkit.h";
    write(Outside, "// toolkit\n");
  }
  void TearDown() override { fs::remove_directories(Base); }

  /// A copy of the tree at `<Base>/<Name>` and the compile of its TU.
  ObjectCompile tree(const std::string &Name, llvm::StringRef Header = "int h();\n") {
    std::string Root = std::string(Base) + "/" + Name;
    EXPECT_FALSE(fs::create_directories(Root + "/obj"));
    write(Root + "/a.cu", "#include \"a.h\"\n");
    write(Root + "/a.h", Header);
    ObjectCompile C{{"nvcc", "-c", Root + "/a.cu", "-o", Root + "/obj/a.o", "-I" + Root, "-O3"},
                    Root,
                    Root + "/obj/a.o"};
    return C;
  }
  /// What the compiler leaves: the object and its dependency list.
  void compiled(const ObjectCompile &C, llvm::StringRef Object) {
    write(C.Object, Object);
    write(C.depFile(), C.Object + ": " + C.Root + "/a.cu " + C.Root + "/a.h " + Outside + "\n");
  }

  llvm::SmallString<128> Base;
  ObjectCache Cache{""};
  std::string Outside;
};

TEST_F(ObjectCacheTest, AnUnchangedTreeElsewhereGetsTheObject) {
  ObjectCompile First = tree("first");
  EXPECT_FALSE(Cache.fetch(First));
  compiled(First, "object bytes");
  Cache.store(First);

  ObjectCompile Second = tree("second");
  ASSERT_TRUE(Cache.fetch(Second));
  EXPECT_EQ(read(Second.Object), "object bytes");
}

TEST_F(ObjectCacheTest, AChangedInputOrFlagGetsNothing) {
  ObjectCompile First = tree("first");
  compiled(First, "object bytes");
  Cache.store(First);

  EXPECT_FALSE(Cache.fetch(tree("edited", "int h(int);\n"))) << "a header of the tree changed";
  ObjectCompile OtherFlags = tree("flags");
  OtherFlags.Command.back() = "-O2";
  EXPECT_FALSE(Cache.fetch(OtherFlags)) << "the command changed";

  write(Outside, "// toolkit, another release\n");
  EXPECT_FALSE(Cache.fetch(tree("toolkit"))) << "a header outside the tree changed";
  EXPECT_EQ(read(std::string(Base) + "/toolkit/obj/a.o"), "<absent>");
}

TEST_F(ObjectCacheTest, AnotherReleaseOfTheCompilerGetsNothing) {
  std::string Compiler = std::string(Base) + "/nvcc";
  write(Compiler, "release 1");
  ObjectCompile First = tree("first");
  First.Command.front() = Compiler;
  compiled(First, "object bytes");
  Cache.store(First);

  ObjectCompile Same = tree("same");
  Same.Command.front() = Compiler;
  EXPECT_TRUE(Cache.fetch(Same));
  write(Compiler, "release 2, larger");
  ObjectCompile Upgraded = tree("upgraded");
  Upgraded.Command.front() = Compiler;
  EXPECT_FALSE(Cache.fetch(Upgraded));
}

TEST_F(ObjectCacheTest, ALaterCompileOfOtherInputsReplacesTheEntry) {
  ObjectCompile First = tree("first");
  compiled(First, "old object");
  Cache.store(First);
  ObjectCompile Edited = tree("edited", "int h(int);\n");
  compiled(Edited, "new object");
  Cache.store(Edited);

  ObjectCompile Again = tree("again", "int h(int);\n");
  ASSERT_TRUE(Cache.fetch(Again));
  EXPECT_EQ(read(Again.Object), "new object");
  EXPECT_FALSE(Cache.fetch(tree("back"))) << "only the latest inputs are kept";
}

TEST_F(ObjectCacheTest, NoFolderKeepsNothing) {
  ObjectCache None("");
  ObjectCompile C = tree("first");
  compiled(C, "object bytes");
  None.store(C);
  EXPECT_FALSE(None.fetch(tree("second")));
}

} // namespace
} // namespace opmig
