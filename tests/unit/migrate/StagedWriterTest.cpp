#include "opmig/migrate/StagedWriter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace opmig::migrate {
namespace {

namespace fs = llvm::sys::fs;

class StagedWriterTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(fs::createUniqueDirectory("opmig-staged", Dir));
    Root = std::string(Dir);
  }
  void TearDown() override { fs::remove_directories(Root); }

  std::string at(const std::string &Rel) const { return Root + "/" + Rel; }
  void write(const std::string &Rel, const std::string &Content) {
    fs::create_directories(llvm::StringRef(at(Rel)).rsplit('/').first);
    std::error_code EC;
    llvm::raw_fd_ostream OS(at(Rel), EC);
    OS << Content;
  }
  std::string read(const std::string &Rel) const {
    auto Buffer = llvm::MemoryBuffer::getFile(at(Rel));
    return Buffer ? (*Buffer)->getBuffer().str() : "<missing>";
  }
  /// Runs commitChanges in a child process that dies after `KillAfter`
  /// moves, as a Ctrl-C that cannot be caught or a crash would.
  void commitAndDie(const std::vector<FileChange> &Changes, unsigned KillAfter) {
    pid_t Child = fork();
    ASSERT_NE(Child, -1);
    if (Child == 0) {
      CommitHooks Hooks;
      Hooks.AfterMove = [KillAfter](unsigned Moves) {
        if (Moves == KillAfter)
          _exit(9);
      };
      llvm::consumeError(commitChanges(Root, Changes, Hooks));
      _exit(0);
    }
    int Status = 0;
    waitpid(Child, &Status, 0);
    ASSERT_TRUE(WIFEXITED(Status));
    ASSERT_EQ(WEXITSTATUS(Status), 9);
  }

  std::string Root;
};

TEST_F(StagedWriterTest, CreatesUpdatesAndRemovesThenCleansUp) {
  write("keep.txt", "old");
  write("gone.txt", "bye");
  ASSERT_FALSE(bool(commitChanges(
      Root, {{"keep.txt", "new", false}, {"deep/er/file.h", "x", false}, {"gone.txt", "", true}})));
  EXPECT_EQ(read("keep.txt"), "new");
  EXPECT_EQ(read("deep/er/file.h"), "x");
  EXPECT_FALSE(fs::exists(at("gone.txt")));
  EXPECT_FALSE(fs::exists(at(StagingDirName)));
}

TEST_F(StagedWriterTest, RejectsPathsThatLeaveTheTarget) {
  for (const char *Bad : {"../escape.txt", "a/../../b", "/etc/passwd", "./x", ""}) {
    llvm::Error E = commitChanges(Root, {{"ok.txt", "1", false}, {Bad, "2", false}});
    ASSERT_TRUE(bool(E)) << Bad;
    EXPECT_NE(llvm::toString(std::move(E)).find("refusing to write"), std::string::npos) << Bad;
    EXPECT_FALSE(fs::exists(at("ok.txt"))) << "nothing is written when one path is bad";
  }
}

TEST_F(StagedWriterTest, RejectsWritingThroughASymlink) {
  llvm::SmallString<128> Outside;
  ASSERT_FALSE(fs::createUniqueDirectory("opmig-outside", Outside));
  ASSERT_FALSE(fs::create_link(Outside, at("link")));
  llvm::Error E = commitChanges(Root, {{"link/file.txt", "x", false}});
  ASSERT_TRUE(bool(E));
  std::string Message = llvm::toString(std::move(E));
  EXPECT_NE(Message.find("is a symbolic link"), std::string::npos) << Message;
  EXPECT_FALSE(fs::exists(std::string(Outside) + "/file.txt"));
  fs::remove_directories(Outside);
}

TEST_F(StagedWriterTest, FailureWhileMovingRollsBackEarlierMoves) {
  write("a.txt", "before");
  write("blocker", "a file where a folder is needed");
  llvm::Error E = commitChanges(Root, {{"a.txt", "after", false}, {"blocker/b.txt", "x", false}});
  ASSERT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(read("a.txt"), "before");
  EXPECT_EQ(read("blocker"), "a file where a folder is needed");
  EXPECT_FALSE(fs::exists(at(StagingDirName)));
}

TEST_F(StagedWriterTest, KilledRunIsRolledBackByTheNextOne) {
  write("one.txt", "1");
  write("two.txt", "2");
  commitAndDie(
      {{"one.txt", "one", false}, {"new/dir/three.txt", "3", false}, {"two.txt", "", true}},
      /*KillAfter=*/2);
  ASSERT_TRUE(fs::exists(at(StagingDirName))) << "the journal survives the crash";
  EXPECT_EQ(read("one.txt"), "one") << "half-applied before recovery";

  llvm::Expected<bool> Recovered = recoverInterrupted(Root);
  ASSERT_TRUE(bool(Recovered));
  EXPECT_TRUE(*Recovered);
  EXPECT_EQ(read("one.txt"), "1");
  EXPECT_EQ(read("two.txt"), "2");
  EXPECT_FALSE(fs::exists(at("new/dir/three.txt")));
  EXPECT_FALSE(fs::exists(at("new"))) << "folders the crashed run created are removed";
  EXPECT_FALSE(fs::exists(at(StagingDirName)));
  llvm::Expected<bool> Again = recoverInterrupted(Root);
  ASSERT_TRUE(bool(Again));
  EXPECT_FALSE(*Again);
}

TEST_F(StagedWriterTest, FullDiskWhileStagingLeavesTheTargetUntouched) {
  write("big.txt", "small");
  pid_t Child = fork();
  ASSERT_NE(Child, -1);
  if (Child == 0) {
    // A file size limit makes writes fail as a full disk would.
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit Limit = {4096, 4096};
    setrlimit(RLIMIT_FSIZE, &Limit);
    llvm::Error E = commitChanges(Root, {{"big.txt", std::string(64 * 1024, 'x'), false}});
    bool Failed = bool(E);
    llvm::consumeError(std::move(E));
    _exit(Failed ? 0 : 1);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0) << "the commit must fail";
  EXPECT_EQ(read("big.txt"), "small");
  EXPECT_FALSE(fs::exists(at(StagingDirName)));
}

} // namespace
} // namespace opmig::migrate
