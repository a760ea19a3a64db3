//===- CommandRunnerTest.cpp - Tests for running a compiler or linker -----===//
//
// Runs /bin/sh scripts that stand for a compiler: what the runner keeps of
// their output, their status and their failures to finish.
//
//===----------------------------------------------------------------------===//

#include "opmig/support/CommandRunner.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace opmig;

namespace {

CommandRun runShell(const std::string &Script, const CommandOptions &Options = {}) {
  return runCommand({"/bin/sh", "-c", Script}, Options);
}

TEST(CommandRunner, KeepsStdoutAndStderrInOneLog) {
  CommandRun Run = runShell("echo compiling; echo 'a.cu(17): error: x is undefined' >&2; exit 2");
  EXPECT_TRUE(Run.Finished);
  EXPECT_FALSE(Run.succeeded());
  EXPECT_EQ(Run.ExitCode, 2);
  EXPECT_EQ(Run.Output, "compiling\na.cu(17): error: x is undefined\n");
  EXPECT_EQ(Run.firstError(), "a.cu:17: x is undefined");
}

TEST(CommandRunner, SucceedsWithoutAnError) {
  CommandRun Run = runShell("echo 'warning: error-prone but fine'");
  EXPECT_TRUE(Run.succeeded());
  EXPECT_EQ(Run.firstError(), "");
}

TEST(CommandRunner, StdinIsEmpty) {
  // `cat` would wait for a terminal that stdin inherited.
  CommandRun Run = runCommand({"/bin/cat"});
  EXPECT_TRUE(Run.succeeded());
  EXPECT_EQ(Run.Output, "");
}

TEST(CommandRunner, AFailureWithoutAnErrorLineSaysTheStatus) {
  CommandRun Run = runShell("echo nothing to see; exit 3");
  EXPECT_EQ(Run.firstError(), "sh exited with status 3");
}

TEST(CommandRunner, AProgramThatCannotStartDidNotFinish) {
  CommandRun Run = runCommand({"/nonexistent/opmig-test-compiler", "-c", "a.cu"});
  EXPECT_FALSE(Run.Finished);
  EXPECT_FALSE(Run.succeeded());
  EXPECT_FALSE(Run.Problem.empty());
  EXPECT_EQ(Run.firstError(), Run.Problem);
}

TEST(CommandRunner, TheTimeoutStopsIt) {
  CommandOptions Options;
  Options.TimeoutSeconds = 1;
  CommandRun Run = runShell("sleep 30", Options);
  EXPECT_FALSE(Run.Finished);
  EXPECT_FALSE(Run.firstError().empty());
}

TEST(CommandRunner, StderrCanBeDropped) {
  CommandOptions Options;
  Options.KeepStderr = false;
  CommandRun Run = runShell("echo answer; echo noise >&2", Options);
  EXPECT_TRUE(Run.succeeded());
  EXPECT_EQ(Run.Output, "answer\n");
}

TEST(CommandRunner, ANamedLogStays) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("opmig-run-test", Dir));
  CommandOptions Options;
  Options.LogPath = (Dir + "/compile.log").str();
  CommandRun Run = runShell("echo 'k.cpp:3:5: error: no member named x'; exit 1", Options);
  EXPECT_EQ(Run.firstError(), "k.cpp:3: no member named x");
  auto Log = llvm::MemoryBuffer::getFile(Options.LogPath);
  ASSERT_TRUE(static_cast<bool>(Log));
  EXPECT_EQ((*Log)->getBuffer(), "k.cpp:3:5: error: no member named x\n");
  llvm::sys::fs::remove_directories(Dir);
}

TEST(FirstErrorIn, PrefersACompilerErrorWithItsPlace) {
  EXPECT_EQ(firstErrorIn("In file included from a.cu:1:\n"
                         "b.h:4:10: fatal error: 'c.h' file not found\n"
                         "a.cu(9): error: later\n"),
            "b.h:4: 'c.h' file not found");
}

TEST(FirstErrorIn, ElseTheLinkersFirstComplaint) {
  EXPECT_EQ(firstErrorIn("/usr/bin/ld: b.o: in function `g()':\n"
                         "  b.cpp:(.text+0x5): undefined reference to `f()'\n"
                         "collect2: error: ld returned 1 exit status\n"),
            "b.cpp:(.text+0x5): undefined reference to `f()'");
  EXPECT_EQ(firstErrorIn("/usr/bin/ld: b.o: multiple definition of `f()'; a.o: first defined here\n"
                         "collect2: error: ld returned 1 exit status\n"),
            "/usr/bin/ld: b.o: multiple definition of `f()'; a.o: first defined here");
}

TEST(FirstErrorIn, NothingWhenNoLineSaysSo) {
  EXPECT_EQ(firstErrorIn("a.cu(3): warning #177-D: variable \"x\" was declared but never used\n"),
            "");
}

} // namespace
