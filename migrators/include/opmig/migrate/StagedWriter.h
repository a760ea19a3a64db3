//===- StagedWriter.h - Land a set of file changes atomically ---*- C++ -*-===//
//
// A migration changes many files; it must land completely or not at all.
//
//   1. every new content is written under `<target>/.opmig-staging/new/`
//      (a full disk fails here, and the target is untouched);
//   2. a journal lists the changes, then each target file is moved to
//      `.opmig-staging/backup/` and the staged file moved into place, with
//      SIGINT/SIGTERM/SIGHUP held back so Ctrl-C cannot stop it halfway;
//   3. the staging directory is removed.
//
// A process killed during step 2 leaves the journal behind: the next
// commitChanges() (or recoverInterrupted()) first puts every backup back,
// removes the files and directories the interrupted run created, and only
// then proceeds, so the target is as it was before the interrupted run.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_STAGEDWRITER_H
#define OPMIG_MIGRATE_STAGEDWRITER_H

#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace opmig::migrate {

inline constexpr const char *StagingDirName = ".opmig-staging";

struct FileChange {
  std::string Path;    ///< Relative to the target root; no `..`, not absolute.
  std::string Content; ///< Ignored for a removal.
  bool Remove = false;
};

struct CommitHooks {
  /// Called after each file is moved into place; a test uses it to kill the
  /// process half-way and check the next run's recovery.
  std::function<void(unsigned MovesDone)> AfterMove;
};

/// Checks that `Path` is a safe target-relative path: not empty, not
/// absolute, no `.` or `..` component, and no existing component under
/// `TargetRoot` that is a symlink (which could lead outside the target).
llvm::Error checkTargetPath(const std::string &TargetRoot, const std::string &Path);

/// Applies `Changes` under `TargetRoot` all or nothing (see above).
llvm::Error commitChanges(const std::string &TargetRoot, const std::vector<FileChange> &Changes,
                          const CommitHooks &Hooks = {});

/// Rolls back a run that was interrupted while committing. Returns whether
/// there was one.
llvm::Expected<bool> recoverInterrupted(const std::string &TargetRoot);

} // namespace opmig::migrate

#endif
