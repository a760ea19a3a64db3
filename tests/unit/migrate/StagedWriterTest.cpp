#include "opmig/migrate/StagedWriter.h"

#include "opmig/support/Hashing.h"
#include "opmig/support/Manifest.h"

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

TEST_F(StagedWriterTest, EditedFilesKeepTheirMode) {
  write("setup.py", "#!/usr/bin/env python3\n");
  ASSERT_FALSE(bool(fs::setPermissions(at("setup.py"), fs::perms(0755))));
  write("plain.txt", "old");
  ASSERT_FALSE(bool(fs::setPermissions(at("plain.txt"), fs::perms(0640))));
  ASSERT_FALSE(bool(commitChanges(Root, {{"setup.py", "#!/usr/bin/env python3\n# edited\n", false},
                                         {"plain.txt", "new", false}})));
  EXPECT_EQ(read("setup.py"), "#!/usr/bin/env python3\n# edited\n");
  EXPECT_EQ(fs::getPermissions(at("setup.py")).get(), fs::perms(0755));
  EXPECT_EQ(fs::getPermissions(at("plain.txt")).get(), fs::perms(0640));
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

/// A journal written by hand (`Changes` is its JSON array).
std::string journal(const std::string &Changes) {
  return R"({"schema": "opmig.journal/1", "created_folders": [], "changes": )" + Changes + "}";
}

TEST_F(StagedWriterTest, StagingFolderThatIsASymlinkIsNeitherFollowedNorRemoved) {
  llvm::SmallString<128> Outside;
  ASSERT_FALSE(fs::createUniqueDirectory("opmig-outside", Outside));
  std::string Kept = std::string(Outside) + "/keep.txt";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Kept, EC);
    OS << "keep";
  }
  ASSERT_FALSE(fs::create_link(Outside, at(StagingDirName)));
  auto Found = inspectInterrupted(Root);
  ASSERT_FALSE(bool(Found));
  EXPECT_NE(llvm::toString(Found.takeError()).find("is not a folder opmig made"),
            std::string::npos);
  llvm::Expected<bool> Recovered = recoverInterrupted(Root);
  EXPECT_FALSE(bool(Recovered));
  llvm::consumeError(Recovered.takeError());
  llvm::Error E = commitChanges(Root, {{"a.txt", "a", false}});
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_TRUE(fs::exists(Kept)) << "the folder the link points to is untouched";
  EXPECT_TRUE(fs::is_symlink_file(at(StagingDirName)));
  EXPECT_FALSE(fs::exists(at("a.txt")));
  fs::remove_directories(Outside);
}

TEST_F(StagedWriterTest, StagingFolderThatIsAFileIsKept) {
  write(StagingDirName, "not a folder");
  llvm::Expected<bool> Recovered = recoverInterrupted(Root);
  EXPECT_FALSE(bool(Recovered));
  llvm::consumeError(Recovered.takeError());
  EXPECT_EQ(read(StagingDirName), "not a folder");
}

TEST_F(StagedWriterTest, JournalIsCheckedWholeBeforeAnythingIsTouched) {
  write("setup.py", "setup");
  write(std::string(StagingDirName) + "/backup/setup.py", "older setup");
  for (const char *Bad : {R"("../elsewhere/file")", R"("/etc/passwd")", R"("a\u0000b")",
                          R"("a/./b")", R"(".opmig-staging/journal.json")", "7"}) {
    SCOPED_TRACE(Bad);
    write(std::string(StagingDirName) + "/journal.json",
          journal(R"([{"path": ")" + std::string("setup.py") +
                  R"(", "had_original": true, "new_sha256": "x"}, {"path": )" + Bad +
                  R"(, "had_original": false}])"));
    llvm::Expected<bool> Recovered = recoverInterrupted(Root);
    ASSERT_FALSE(bool(Recovered));
    std::string Message = llvm::toString(Recovered.takeError());
    EXPECT_NE(Message.find("nothing was changed"), std::string::npos) << Message;
    EXPECT_EQ(read("setup.py"), "setup") << "the valid first change was not applied";
    EXPECT_EQ(read(std::string(StagingDirName) + "/backup/setup.py"), "older setup");
  }
}

TEST_F(StagedWriterTest, JournalPathThroughASymlinkIsRefused) {
  llvm::SmallString<128> Outside;
  ASSERT_FALSE(fs::createUniqueDirectory("opmig-outside", Outside));
  ASSERT_FALSE(fs::create_link(Outside, at("link")));
  write("link/victim.txt", "outside");
  write(std::string(StagingDirName) + "/journal.json",
        journal(R"([{"path": "link/victim.txt", "had_original": false, "new_sha256": ")" +
                sha256Hex("outside") + R"("}])"));
  llvm::Expected<bool> Recovered = recoverInterrupted(Root);
  EXPECT_FALSE(bool(Recovered));
  llvm::consumeError(Recovered.takeError());
  EXPECT_EQ(read("link/victim.txt"), "outside");
  fs::remove_directories(Outside);
}

TEST_F(StagedWriterTest, FileChangedSinceTheInterruptedRunIsNotRemoved) {
  write("made.txt", "edited by hand since");
  write(std::string(StagingDirName) + "/journal.json",
        journal(R"([{"path": "made.txt", "had_original": false, "new_sha256": ")" +
                sha256Hex("what was staged") + R"("}])"));
  llvm::Expected<bool> Recovered = recoverInterrupted(Root);
  ASSERT_FALSE(bool(Recovered));
  EXPECT_NE(llvm::toString(Recovered.takeError()).find("made.txt changed since"),
            std::string::npos);
  EXPECT_EQ(read("made.txt"), "edited by hand since");
}

TEST_F(StagedWriterTest, InspectingReadsOnly) {
  write("one.txt", "1");
  commitAndDie({{"one.txt", "one", false}, {"two/new.txt", "2", false}}, /*KillAfter=*/2);
  auto Before = read("one.txt");
  auto Found = inspectInterrupted(Root);
  ASSERT_TRUE(bool(Found)) << llvm::toString(Found.takeError());
  ASSERT_TRUE(Found->has_value());
  EXPECT_EQ((*Found)->Restored, std::vector<std::string>{"one.txt"});
  EXPECT_EQ((*Found)->Removed, std::vector<std::string>{"two/new.txt"});
  EXPECT_EQ((*Found)->Folders, std::vector<std::string>{"two"});
  EXPECT_EQ(read("one.txt"), Before);
  EXPECT_TRUE(fs::exists(at(std::string(StagingDirName) + "/journal.json")));
}

/// Every step of the commit, killed (SIGKILL: nothing runs after it) or
/// signalled (SIGTERM: held back until the commit is complete), in a child.
/// The target is then untouched or fully changed, and the next commit of
/// the same changes ends fully changed: it neither reverts nor duplicates.
TEST_F(StagedWriterTest, FaultAtEveryStepLeavesTheTargetWholeOrUntouched) {
  const std::vector<FileChange> Changes = {{"a.txt", "A", false},
                                           {"deep/new/b.txt", "B", false},
                                           {"gone.txt", "", true},
                                           {"c.txt", "C", false}};
  auto Reset = [&] {
    fs::remove_directories(Root);
    fs::create_directories(Root);
    write("a.txt", "a");
    write("gone.txt", "gone");
    write("c.txt", "c");
  };
  auto State = [&] {
    return read("a.txt") + "|" + read("deep/new/b.txt") + "|" + read("gone.txt") + "|" +
           read("c.txt") + "|" + (fs::exists(at("deep")) ? "deep" : "-");
  };
  Reset();
  const std::string Untouched = State();
  const std::string Done = "A|B|<missing>|C|deep";
  struct Fault {
    CommitStep Step;
    unsigned Moves;
  };
  for (Fault F :
       {Fault{CommitStep::Staged, 0}, Fault{CommitStep::JournalWritten, 0},
        Fault{CommitStep::Moved, 1}, Fault{CommitStep::Moved, 2}, Fault{CommitStep::Moved, 3},
        Fault{CommitStep::AllMoved, 4}, Fault{CommitStep::JournalRemoved, 4}}) {
    for (int Signal : {SIGKILL, SIGTERM}) {
      SCOPED_TRACE(testing::Message() << "step " << int(F.Step) << " after " << F.Moves
                                      << " moves, signal " << Signal);
      Reset();
      pid_t Child = fork();
      ASSERT_NE(Child, -1);
      if (Child == 0) {
        CommitHooks Hooks;
        Hooks.AtStep = [F, Signal](CommitStep Step, unsigned Moves) {
          if (Step == F.Step && (Step != CommitStep::Moved || Moves == F.Moves))
            raise(Signal);
        };
        llvm::consumeError(commitChanges(Root, Changes, Hooks));
        _exit(0);
      }
      int Status = 0;
      waitpid(Child, &Status, 0);
      ASSERT_TRUE(WIFSIGNALED(Status)) << "the child died of the signal";
      EXPECT_EQ(WTERMSIG(Status), Signal);
      bool Held = Signal == SIGTERM && F.Step != CommitStep::Staged;
      bool PastCommitPoint = F.Step == CommitStep::JournalRemoved;
      if (Held) {
        EXPECT_EQ(State(), Done) << "a held signal waits for the end of the commit";
        EXPECT_FALSE(fs::exists(at(StagingDirName)));
      }
      llvm::Expected<std::optional<InterruptedCommit>> Found = inspectInterrupted(Root);
      ASSERT_TRUE(bool(Found)) << llvm::toString(Found.takeError());
      if (PastCommitPoint && *Found) {
        EXPECT_TRUE((*Found)->Restored.empty() && (*Found)->Removed.empty())
            << "past the commit point nothing is rolled back";
      }
      std::string Now = State();
      EXPECT_TRUE(Now == Untouched || Now == Done || (*Found && (*Found)->HasJournal)) << Now;
      llvm::Expected<bool> Recovered = recoverInterrupted(Root);
      ASSERT_TRUE(bool(Recovered)) << llvm::toString(Recovered.takeError());
      EXPECT_TRUE(State() == Untouched || State() == Done) << State();
      if (PastCommitPoint) {
        EXPECT_EQ(State(), Done) << "a finished commit is not undone";
      }
      llvm::Error Next = commitChanges(Root, Changes);
      ASSERT_FALSE(bool(Next)) << llvm::toString(std::move(Next));
      EXPECT_EQ(State(), Done);
      EXPECT_FALSE(fs::exists(at(StagingDirName)));
    }
  }
}

} // namespace
} // namespace opmig::migrate
