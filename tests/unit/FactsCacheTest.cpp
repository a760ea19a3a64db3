//===- FactsCacheTest.cpp - Tests for the per-TU facts cache --------------===//
//
// Facts are built by hand; their InputFiles name real files of a temporary
// tree (stamped by content hash) and one file outside it (stamped by size
// and modification time, like a toolkit header).
//
//===----------------------------------------------------------------------===//

#include "opmig/analyze/FactsCache.h"

#include "nlohmann/json.hpp"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>

using namespace opmig;
using namespace opmig::analyze;

namespace {

std::string makeTempDir(llvm::StringRef Prefix) {
  llvm::SmallString<128> Created, Real;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory(Prefix, Created));
  EXPECT_FALSE(llvm::sys::fs::real_path(Created, Real));
  return std::string(Real);
}

void writeFile(const std::string &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  EXPECT_FALSE(EC) << Path;
  OS << Text;
}

class FactsCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    Root = makeTempDir("opmig-factscache-tree");
    Outside = makeTempDir("opmig-factscache-toolkit");
    CacheDir = makeTempDir("opmig-factscache-cache");
    writeFile(Root + "/a.cpp", "#include \"a.h\"\nint f() { return g(); }\n");
    writeFile(Root + "/a.h", "inline int g() { return 1; }\n");
    writeFile(Outside + "/toolkit.h", "// toolkit\n");
    Tree = readTree();
  }
  void TearDown() override {
    for (const std::string &Dir : {Root, Outside, CacheDir})
      llvm::sys::fs::remove_directories(Dir);
  }

  SourceTree readTree() const {
    auto Read = readSourceTree(Root);
    if (!Read) {
      ADD_FAILURE() << llvm::toString(Read.takeError());
      return SourceTree();
    }
    return std::move(*Read);
  }

  ParseRequest request() const {
    ParseRequest Request;
    Request.MainFile = Root + "/a.cpp";
    Request.SourceRoot = Root;
    Request.Directory = Root;
    Request.Flags = {"-std=c++17", "-DMODE=1"};
    return Request;
  }

  TUFacts facts() const {
    TUFacts Facts;
    Facts.MainFile = Root + "/a.cpp";
    SymbolFact &F = Facts.Symbols["c:@F@f#"];
    F.Name = "f";
    F.File = Root + "/a.cpp";
    F.Line = 2;
    F.IsDefinition = true;
    F.Refs = {"c:@F@g#"};
    SymbolFact &G = Facts.Symbols["c:@F@g#"];
    G.Name = "g";
    G.File = Root + "/a.h";
    G.Line = 1;
    G.IsDefinition = true;
    Facts.Includes.push_back({Root + "/a.cpp", 1, "a.h", false, Root + "/a.h", false});
    Facts.Registrations.push_back(
        {"torch-op", "ops", "f", "(Tensor(a!) x) -> ()", "c:@F@f#", Root + "/a.cpp", 2});
    Facts.InputFiles = {Root + "/a.cpp", Root + "/a.h", Outside + "/toolkit.h"};
    return Facts;
  }

  /// A lookup through a fresh cache over the tree as it is now on disk:
  /// stamps are memoized per cache, as they are per run.
  std::optional<TUFacts> lookupFresh(const ParseRequest &Request) {
    SourceTree Now = readTree();
    return FactsCache(CacheDir, Now).lookup(Request);
  }

  /// Names of the files in the cache directory.
  /// Entry files, wherever the cache keeps them below its directory.
  std::vector<std::string> cacheFiles() const {
    std::vector<std::string> Files;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(CacheDir, EC), End; It != End && !EC;
         It.increment(EC))
      if (It->type() == llvm::sys::fs::file_type::regular_file)
        Files.push_back(It->path());
    return Files;
  }

  std::string Root, Outside, CacheDir;
  SourceTree Tree;
};

TEST_F(FactsCacheTest, StoreThenLookupReturnsEqualFacts) {
  FactsCache Cache(CacheDir, Tree);
  TUFacts Stored = facts();
  Cache.store(request(), Stored);
  std::optional<TUFacts> Loaded = Cache.lookup(request());
  ASSERT_TRUE(Loaded);
  EXPECT_EQ(Loaded->MainFile, Stored.MainFile);
  EXPECT_EQ(Loaded->Symbols.at("c:@F@f#").Refs, std::set<std::string>{"c:@F@g#"});
  EXPECT_EQ(Loaded->Includes.at(0).Resolved, Root + "/a.h");
  EXPECT_EQ(Loaded->Registrations.at(0).Function, "c:@F@f#");
  EXPECT_EQ(Loaded->InputFiles, Stored.InputFiles);
  // And everything else: the JSON forms are equal.
  EXPECT_EQ(nlohmann::json(*Loaded), nlohmann::json(Stored));
}

TEST_F(FactsCacheTest, EntryOutlivesTheCacheObject) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  EXPECT_EQ(cacheFiles().size(), 1u);
  EXPECT_TRUE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, LookupWithoutStoreMisses) {
  EXPECT_FALSE(FactsCache(CacheDir, Tree).lookup(request()));
}

TEST_F(FactsCacheTest, ChangedTreeFileMisses) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  writeFile(Root + "/a.h", "inline int g() { return 2; }\n");
  EXPECT_FALSE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, RewrittenTreeFileWithSameContentStillHits) {
  // Tree files are stamped by content, not modification time: a checkout
  // that rewrites files unchanged keeps the cache.
  FactsCache(CacheDir, Tree).store(request(), facts());
  writeFile(Root + "/a.h", "inline int g() { return 1; }\n");
  EXPECT_TRUE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, ChangedFileOutsideTheTreeMisses) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  writeFile(Outside + "/toolkit.h", "// toolkit, updated\n");
  EXPECT_FALSE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, DifferentCommandLineMisses) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  ParseRequest Other = request();
  Other.Flags = {"-std=c++17", "-DMODE=2"};
  EXPECT_FALSE(lookupFresh(Other));
}

TEST_F(FactsCacheTest, DifferentSideOfCudaTUMisses) {
  writeFile(Root + "/k.cu", "__global__ void k() {}\n");
  ParseRequest Host = request();
  Host.MainFile = Root + "/k.cu";
  FactsCache(CacheDir, readTree()).store(Host, facts());
  ParseRequest Device = Host;
  Device.Side = ParseSide::Device;
  EXPECT_TRUE(lookupFresh(Host));
  EXPECT_FALSE(lookupFresh(Device));
}

TEST_F(FactsCacheTest, EmptyDirDisablesTheCache) {
  FactsCache Disabled("", Tree);
  Disabled.store(request(), facts());
  EXPECT_FALSE(Disabled.lookup(request()));
  EXPECT_TRUE(cacheFiles().empty());
}

TEST_F(FactsCacheTest, CorruptEntryIsAMiss) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  std::vector<std::string> Files = cacheFiles();
  ASSERT_EQ(Files.size(), 1u);
  for (llvm::StringRef Corrupt :
       {"", "{not json", R"({"stamps": 5, "facts": {}})", R"({"stamps": [], "facts": 3})",
        R"({"stamps": [{"path": 1}], "facts": {}})", R"({"stamps": [], "facts": {"MainFile": 2}})",
        "[1, 2, 3]"}) {
    writeFile(Files.front(), Corrupt);
    EXPECT_FALSE(lookupFresh(request())) << Corrupt.str();
  }
  // A new store repairs the entry.
  FactsCache(CacheDir, Tree).store(request(), facts());
  EXPECT_TRUE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, EntriesOfOtherBuildsAreRemovedOnceStale) {
  // Two directories as another build of opmig leaves them: one used today,
  // one untouched for two weeks.
  std::string Recent = CacheDir + "/0recent", Stale = CacheDir + "/0stale";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Recent));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Stale));
  std::filesystem::last_write_time(Stale, std::filesystem::file_time_type::clock::now() -
                                              std::chrono::hours(24 * 14));
  FactsCache(CacheDir, Tree).store(request(), facts());
  EXPECT_TRUE(llvm::sys::fs::is_directory(Recent));
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, IncompleteFactsAreNotStored) {
  TUFacts Incomplete = facts();
  Incomplete.Completed = false;
  FactsCache(CacheDir, Tree).store(request(), Incomplete);
  EXPECT_TRUE(cacheFiles().empty());
  EXPECT_FALSE(lookupFresh(request()));
}

TEST_F(FactsCacheTest, VanishedInputFileStoresNothing) {
  TUFacts Facts = facts();
  Facts.InputFiles.push_back(Outside + "/deleted.h");
  FactsCache(CacheDir, Tree).store(request(), Facts);
  EXPECT_TRUE(cacheFiles().empty());
}

} // namespace

TEST_F(FactsCacheTest, NvccVerdictRoundTripsAndFollowsItsInputs) {
  std::vector<std::string> Command = {"nvcc", "-x", "cu", "-cuda", Root + "/a.cpp"};
  NvccVerdict Rejected;
  Rejected.Ran = true;
  Rejected.Errors = {{Root + "/a.h", 1, "boom"}};
  FactsCache(CacheDir, Tree).storeVerdict(Command, {Root + "/a.cpp", Root + "/a.h"}, Rejected);
  std::optional<NvccVerdict> Loaded = FactsCache(CacheDir, readTree()).lookupVerdict(Command);
  ASSERT_TRUE(Loaded);
  EXPECT_TRUE(Loaded->Ran);
  EXPECT_FALSE(Loaded->Accepted);
  ASSERT_EQ(Loaded->Errors.size(), 1u);
  EXPECT_EQ(Loaded->Errors[0].Message, "boom");
  EXPECT_EQ(Loaded->Errors[0].Line, 1u);
  // Another command line is another entry; a parse entry is not a verdict.
  EXPECT_FALSE(FactsCache(CacheDir, Tree).lookupVerdict({"nvcc", Root + "/a.cpp"}));
  // An edited header invalidates it.
  writeFile(Root + "/a.h", "inline int g() { return 2; }\n");
  EXPECT_FALSE(FactsCache(CacheDir, readTree()).lookupVerdict(Command));
}

TEST_F(FactsCacheTest, NvccThatDidNotRunIsNotCached) {
  std::vector<std::string> Command = {"nvcc", Root + "/a.cpp"};
  NvccVerdict NotRun;
  NotRun.Problem = "No such file or directory";
  FactsCache(CacheDir, Tree).storeVerdict(Command, {Root + "/a.cpp"}, NotRun);
  EXPECT_TRUE(cacheFiles().empty());
}

/// A copy of the tree at another path (a second checkout, a sandbox) reads
/// the entries the first wrote, with its own paths in them.
TEST_F(FactsCacheTest, ACopyOfTheTreeElsewhereReadsTheEntriesWithItsOwnPaths) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  std::string Copy = makeTempDir("opmig-factscache-copy");
  std::filesystem::copy(Root, Copy, std::filesystem::copy_options::recursive);
  auto Read = readSourceTree(Copy);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ParseRequest There = request();
  There.MainFile = Copy + "/a.cpp";
  There.SourceRoot = There.Directory = Copy;
  std::optional<TUFacts> Loaded = FactsCache(CacheDir, *Read).lookup(There);
  llvm::sys::fs::remove_directories(Copy);
  ASSERT_TRUE(Loaded);
  EXPECT_EQ(Loaded->MainFile, Copy + "/a.cpp");
  EXPECT_EQ(Loaded->Symbols.at("c:@F@g#").File, Copy + "/a.h");
  EXPECT_EQ(Loaded->Includes.at(0).Resolved, Copy + "/a.h");
  // The file outside the tree is named as it was.
  EXPECT_EQ(Loaded->InputFiles,
            (std::vector<std::string>{Copy + "/a.cpp", Copy + "/a.h", Outside + "/toolkit.h"}));
}

/// A copy whose content differs is a miss, as an edit is.
TEST_F(FactsCacheTest, ACopyWithOtherContentMisses) {
  FactsCache(CacheDir, Tree).store(request(), facts());
  std::string Copy = makeTempDir("opmig-factscache-copy");
  std::filesystem::copy(Root, Copy, std::filesystem::copy_options::recursive);
  writeFile(Copy + "/a.h", "inline int g() { return 3; }\n");
  auto Read = readSourceTree(Copy);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  ParseRequest There = request();
  There.MainFile = Copy + "/a.cpp";
  There.SourceRoot = There.Directory = Copy;
  EXPECT_FALSE(FactsCache(CacheDir, *Read).lookup(There));
  llvm::sys::fs::remove_directories(Copy);
}

/// Only whole path components are the root: `<root>-other/x.h` stays as it is.
TEST_F(FactsCacheTest, APathThatOnlyStartsWithTheRootsNameIsKept) {
  std::string Sibling = Root + "-other";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Sibling));
  writeFile(Sibling + "/x.h", "// beside the tree\n");
  TUFacts Stored = facts();
  Stored.InputFiles.push_back(Sibling + "/x.h");
  Stored.Symbols.at("c:@F@g#").File = Sibling + "/x.h";
  FactsCache(CacheDir, Tree).store(request(), Stored);
  std::optional<TUFacts> Loaded = lookupFresh(request());
  llvm::sys::fs::remove_directories(Sibling);
  ASSERT_TRUE(Loaded);
  EXPECT_EQ(nlohmann::json(*Loaded), nlohmann::json(Stored));
}
