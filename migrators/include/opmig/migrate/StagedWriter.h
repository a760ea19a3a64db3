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
// Signals stay held back until step 3 is done: once every file is moved, the
// journal is removed first (the commit point), so a signal arriving late
// ends the process only after the migration is complete.
//
// Nothing in the staging folder is trusted: a `.opmig-staging` that is a
// symbolic link or a file is refused, never followed or removed; every
// journal path must be a plain relative path without symlinks; a file is
// removed or replaced only when the journal's own staging folder shows that
// the interrupted run put it there (the backup exists, the staged file was
// moved out, the content is what was staged); and all of it is checked
// before the first file is touched.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_STAGEDWRITER_H
#define OPMIG_MIGRATE_STAGEDWRITER_H

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace opmig::migrate {

inline constexpr const char *StagingDirName = ".opmig-staging";

struct FileChange {
  std::string Path;    ///< Relative to the target root; no `..`, not absolute.
  std::string Content; ///< Ignored for a removal.
  bool Remove = false;
};

/// The steps of a commit, for fault injection.
enum class CommitStep {
  Staged,         ///< New contents written under the staging folder; no journal yet.
  JournalWritten, ///< The journal is in place; nothing moved yet.
  Moved,          ///< One more file moved into place (MovesDone says how many).
  AllMoved,       ///< Every file moved; the journal still exists.
  JournalRemoved, ///< The commit point passed; the staging folder still exists.
};

struct CommitHooks {
  /// Called after each file is moved into place; a test uses it to kill the
  /// process half-way and check the next run's recovery.
  std::function<void(unsigned MovesDone)> AfterMove;
  /// Called at every step of the commit.
  std::function<void(CommitStep Step, unsigned MovesDone)> AtStep;
};

/// What rolling back an interrupted commit does (all paths target-relative).
struct InterruptedCommit {
  bool HasJournal = false;           ///< False: only a leftover staging folder.
  std::vector<std::string> Restored; ///< Put back from their backup.
  std::vector<std::string> Removed;  ///< Created by the interrupted run.
  std::vector<std::string> Folders;  ///< Created by it; removed when empty.
};

/// Checks that `Path` is a safe target-relative path: not empty, not
/// absolute, no `.` or `..` component, and no existing component under
/// `TargetRoot` that is a symlink (which could lead outside the target).
llvm::Error checkTargetPath(const std::string &TargetRoot, const std::string &Path);

/// Applies `Changes` under `TargetRoot` all or nothing (see above).
llvm::Error commitChanges(const std::string &TargetRoot, const std::vector<FileChange> &Changes,
                          const CommitHooks &Hooks = {});

/// What recoverInterrupted() would do, reading only: nullopt when there is
/// no staging folder. InputError when `.opmig-staging` is not a real folder,
/// or its journal is malformed, names a path outside the target (or through
/// a symbolic link), or a file it names changed since the interrupted run.
llvm::Expected<std::optional<InterruptedCommit>> inspectInterrupted(const std::string &TargetRoot);

/// Rolls back a run that was interrupted while committing. Returns whether
/// there was one. Checks everything (inspectInterrupted()) before touching
/// anything.
llvm::Expected<bool> recoverInterrupted(const std::string &TargetRoot);

} // namespace opmig::migrate

#endif
