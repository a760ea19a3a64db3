//===- CommandRunner.h - Run a tool, keep its first error ------*- C++ -*-===//
//
// Wherever opmig compiles or links (the analysis' nvcc verdicts, --verify,
// the review's domain build), the tool runs the same way: stdin empty,
// stdout and stderr into one log, and the first line of that log that says
// what went wrong kept for the report:
//
//   CommandRun Run = runCommand({Nvcc, "-c", "/tmp/x/a.cu", "-o", "/tmp/x/a.o"});
//   if (!Run.succeeded())
//     Report.push_back(Run.firstError()); // `/tmp/x/a.cu:3: identifier "n" is undefined`
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_COMMANDRUNNER_H
#define OPMIG_SUPPORT_COMMANDRUNNER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig {

struct CommandOptions {
  unsigned TimeoutSeconds = 0; ///< 0: no limit.
  /// Where stdout and stderr go, kept afterwards; empty: a temporary file,
  /// removed once read.
  std::string LogPath;
  /// False: stderr is dropped and `Output` is stdout alone (a program asked
  /// a question, whose answer is its stdout).
  bool KeepStderr = true;
};

struct CommandRun {
  /// It started and exited by itself: not a missing program, a signal or
  /// the timeout.
  bool Finished = false;
  int ExitCode = -1;   ///< Meaningful when `Finished`.
  std::string Output;  ///< stdout, then stderr as the program interleaved them.
  std::string Problem; ///< Why it did not finish.
  std::string Program; ///< The command's first element, for messages.

  bool succeeded() const { return Finished && ExitCode == 0; }
  /// Why it failed, in one line: `Problem` when it did not finish, else the
  /// output's first error (`firstErrorIn`), else `<program> exited with
  /// status N`. Empty when it succeeded.
  std::string firstError() const;
};

/// Runs `Command` (its first element is resolved as a path, not on PATH;
/// callers pass the found program) with an empty stdin.
CommandRun runCommand(const std::vector<std::string> &Command, const CommandOptions &Options = {});

/// The first line of a compiler's or linker's output that says what went
/// wrong: a compiler error as `file:line: message` (nvcc's `file(line):
/// error:` and the host compilers' `file:line:col: error:`), else the first
/// line that mentions an error, a multiple definition or an undefined
/// reference, trimmed. Empty when there is none.
std::string firstErrorIn(llvm::StringRef Output);

} // namespace opmig

#endif
