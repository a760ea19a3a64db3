//===- PreamblePruningTest.cpp - Old preambles leave the cache ------------===//
//
// preamblesToPrune decides on listed preambles; prunePreambles applies it
// to a folder of hand-made PCH files (the pruning never reads them) whose
// entries are stamped by a FactsCache like real ones.
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/PreamblePruning.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace opmig::analyze;
using namespace std::chrono;

namespace {

const system_clock::time_point Now = system_clock::time_point() + hours(24 * 365 * 50);

CachedPreamble preamble(const std::string &Key, hours Age, bool Valid = true) {
  CachedPreamble P;
  P.Key = Key;
  P.LastUsed = Now - Age;
  P.HasEntry = true;
  P.Valid = Valid;
  return P;
}

TEST(PreamblesToPrune, OutdatedOnesGoAtOnce) {
  EXPECT_EQ(preamblesToPrune({preamble("a", hours(0), false), preamble("b", hours(0))}, Now),
            std::vector<std::string>{"a"});
}

TEST(PreamblesToPrune, UnusedOnesGoAfterAWeek) {
  EXPECT_EQ(
      preamblesToPrune({preamble("old", hours(24 * 8)), preamble("recent", hours(24 * 6))}, Now),
      std::vector<std::string>{"old"});
}

TEST(PreamblesToPrune, TheLeastRecentlyUsedGoBeyondTheLimit) {
  std::vector<CachedPreamble> Many;
  for (int I = 0; I < 8; ++I)
    Many.push_back(preamble("k" + std::to_string(I), hours(I)));
  EXPECT_EQ(preamblesToPrune(Many, Now), (std::vector<std::string>{"k6", "k7"}));
  PrunePolicy Two;
  Two.Keep = 2;
  EXPECT_EQ(preamblesToPrune(Many, Now, Two).size(), 6u);
}

TEST(PreamblesToPrune, TiesAreBrokenByKey) {
  PrunePolicy One;
  One.Keep = 1;
  EXPECT_EQ(preamblesToPrune({preamble("b", hours(1)), preamble("a", hours(1))}, Now, One),
            std::vector<std::string>{"b"});
}

TEST(PreamblesToPrune, UnfinishedBuildsAreLeftAWhile) {
  CachedPreamble Building = preamble("building", hours(0));
  Building.HasEntry = Building.Valid = false;
  CachedPreamble Abandoned = preamble("abandoned", hours(2));
  Abandoned.HasEntry = Abandoned.Valid = false;
  EXPECT_EQ(preamblesToPrune({Building, Abandoned}, Now), std::vector<std::string>{"abandoned"});
}

class PruneFolder : public ::testing::Test {
protected:
  void SetUp() override {
    for (std::string *Dir : {&Root, &Headers, &CacheDir}) {
      llvm::SmallString<128> Created, Real;
      ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-prune", Created));
      ASSERT_FALSE(llvm::sys::fs::real_path(Created, Real));
      *Dir = std::string(Real);
    }
    write(Root + "/a.cu", "int x;\n");
    write(Headers + "/torch.h", "// torch 1\n");
    auto Read = readSourceTree(Root);
    ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
    Tree = std::move(*Read);
  }
  void TearDown() override {
    for (const std::string &Dir : {Root, Headers, CacheDir})
      llvm::sys::fs::remove_directories(Dir);
  }

  static void write(const std::string &Path, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC) << Path;
    OS << Text;
  }
  static void age(const std::string &Path, hours By) {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForReadWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                                     llvm::sys::fs::OF_None));
    auto At = system_clock::now() - By;
    EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(FD, At, At));
    ::close(FD);
  }

  /// A stored preamble `Key` of the cache's folder that read torch.h.
  std::string store(FactsCache &Cache, const std::string &Key) {
    std::string Folder = Cache.preambleDir();
    EXPECT_FALSE(llvm::sys::fs::create_directories(Folder));
    write(Folder + "/" + Key + ".cuh", "#include <torch.h>\n");
    write(Folder + "/" + Key + ".pch", "pch " + Key);
    Cache.storePreamble(Folder + "/" + Key + ".pch", {Headers + "/torch.h"});
    return Folder;
  }

  static bool exists(const std::string &Path) { return llvm::sys::fs::exists(Path); }

  std::string Root, Headers, CacheDir;
  SourceTree Tree;
};

TEST_F(PruneFolder, KeepsWhatIsValidAndRecent) {
  FactsCache Cache(CacheDir, Tree);
  std::string Folder = store(Cache, "aaaa");
  EXPECT_EQ(prunePreambles(Folder, Cache), 0u);
  EXPECT_TRUE(exists(Folder + "/aaaa.pch"));
  EXPECT_TRUE(Cache.lookupPreamble(Folder + "/aaaa.pch").has_value());
}

TEST_F(PruneFolder, AChangedHeaderRemovesEveryFileOfThePreamble) {
  std::string Folder;
  {
    FactsCache Cache(CacheDir, Tree);
    Folder = store(Cache, "aaaa");
  }
  write(Headers + "/torch.h", "// torch 2, longer\n"); // A torch upgrade.
  FactsCache Later(CacheDir, Tree);
  EXPECT_EQ(prunePreambles(Folder, Later), 1u);
  for (const char *Ext : {".pch", ".pch.json", ".cuh"})
    EXPECT_FALSE(exists(Folder + "/aaaa" + Ext)) << Ext;
}

TEST_F(PruneFolder, UnusedOnesGoAndUseKeepsThem) {
  FactsCache Cache(CacheDir, Tree);
  std::string Folder = store(Cache, "used");
  store(Cache, "unused");
  for (const char *Key : {"used", "unused"})
    age(Folder + "/" + Key + ".pch.json", hours(24 * 10));
  touchPreamble(Folder + "/used.pch");
  EXPECT_EQ(prunePreambles(Folder, Cache), 1u);
  EXPECT_TRUE(exists(Folder + "/used.pch"));
  EXPECT_FALSE(exists(Folder + "/unused.pch"));
  // Touching changed the entry's time, not the PCH it stamps: still valid.
  EXPECT_TRUE(Cache.lookupPreamble(Folder + "/used.pch").has_value());
}

TEST_F(PruneFolder, AnAbandonedBuildGoesAndOneInProgressStays) {
  FactsCache Cache(CacheDir, Tree);
  std::string Folder = store(Cache, "done");
  write(Folder + "/building.cuh", "#include <torch.h>\n");
  write(Folder + "/building.pch", "half");
  write(Folder + "/abandoned.cuh", "#include <torch.h>\n");
  write(Folder + "/abandoned.pch.json.tmp-123456", "{");
  for (const char *File : {"abandoned.cuh", "abandoned.pch.json.tmp-123456"})
    age(Folder + "/" + File, hours(3));
  EXPECT_EQ(prunePreambles(Folder, Cache), 1u);
  EXPECT_TRUE(exists(Folder + "/building.pch"));
  EXPECT_TRUE(exists(Folder + "/done.pch"));
  EXPECT_FALSE(exists(Folder + "/abandoned.cuh"));
  EXPECT_FALSE(exists(Folder + "/abandoned.pch.json.tmp-123456"));
}

} // namespace
