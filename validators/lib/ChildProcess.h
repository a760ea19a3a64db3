//===- ChildProcess.h - A case of a layer in a process of its own -*- C++ -*-===//
//
// Every case a layer runs (an import, a build step) runs in a child process
// with a time limit, so that a segfault, an abort or a hang is that case's
// outcome, named as such, and the other cases still run.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_CHILDPROCESS_H
#define OPMIG_VALIDATE_LIB_CHILDPROCESS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace opmig::validate {

struct ChildOutcome {
  enum class Kind { Exited, Crashed, TimedOut, NotStarted };
  Kind How = Kind::NotStarted;
  int ExitCode = -1;   ///< For Exited.
  std::string Problem; ///< The signal for Crashed, why for NotStarted.
  unsigned TimeoutSeconds = 0;
  std::string Stdout, Stderr;

  bool succeeded() const { return How == Kind::Exited && ExitCode == 0; }
  /// `exited with status 1`, `crashed: Segmentation fault`, `timed out
  /// after 120 s`, `could not start: ...`.
  std::string describe() const;
  /// The last `Lines` non-empty lines of stderr, for a report.
  std::string stderrTail(size_t Lines = 3) const;
};

/// A child's stdin (written), stdout and stderr as temporary files, removed
/// with this.
class ChildFiles {
public:
  explicit ChildFiles(llvm::StringRef Stdin);
  ~ChildFiles();
  ChildFiles(const ChildFiles &) = delete;
  ChildFiles &operator=(const ChildFiles &) = delete;

  std::string In, Out, Err;
  std::string Problem; ///< Empty when the three files were made.

  /// Stdout and Stderr of `Outcome` from the files the child wrote.
  void readInto(ChildOutcome &Outcome) const;
};

/// Whether the environment variable `Name` is set to something other than
/// empty or `0` (OPMIG_VALIDATE_NO_PRELOAD=1, ...).
bool isEnvSet(const char *Name);

/// This process's environment with `Overrides` (`NAME=VALUE`) replacing
/// same-named entries.
std::vector<std::string> environmentWith(const std::vector<std::string> &Overrides);

/// Runs `Argv` (argv[0] the program's path) with this process's
/// environment plus `Overrides` (`NAME=VALUE`), `Stdin` on its input, for at
/// most `TimeoutSeconds` (0: no limit).
ChildOutcome runChild(const std::vector<std::string> &Argv,
                      const std::vector<std::string> &Overrides, llvm::StringRef Stdin,
                      unsigned TimeoutSeconds);

} // namespace opmig::validate

#endif
