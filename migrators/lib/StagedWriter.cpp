#include "opmig/migrate/StagedWriter.h"

#include "nlohmann/json.hpp"
#include "opmig/support/Errors.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/Manifest.h"
#include "opmig/support/Paths.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

namespace opmig::migrate {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using nlohmann::json;

constexpr const char *JournalSchema = "opmig.journal/1";

namespace {

std::string join(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  path::append(P, path::Style::posix, B);
  return std::string(P);
}

struct StagingPaths {
  std::string Root, Staging, New, Backup, Journal;

  explicit StagingPaths(const std::string &TargetRoot)
      : Root(TargetRoot), Staging(join(TargetRoot, StagingDirName)), New(join(Staging, "new")),
        Backup(join(Staging, "backup")), Journal(join(Staging, "journal.json")) {}
};

llvm::Error writeFile(const std::string &Path, llvm::StringRef Content) {
  if (std::error_code EC = fs::create_directories(path::parent_path(Path)))
    return llvm::createStringError(EC, "cannot create the folder of %s: %s", Path.c_str(),
                                   EC.message().c_str());
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Content;
    OS.close();
    EC = OS.error();
    OS.clear_error();
  }
  if (EC)
    return llvm::createStringError(EC, "cannot write %s: %s", Path.c_str(), EC.message().c_str());
  return llvm::Error::success();
}

/// Writes the new content of `Change` under `NewDir`. An edited file keeps
/// its mode: a `setup.py` that was executable stays so.
llvm::Error stageFile(const std::string &TargetRoot, const std::string &NewDir,
                      const FileChange &Change) {
  std::string Staged = join(NewDir, Change.Path);
  if (llvm::Error E = writeFile(Staged, Change.Content))
    return E;
  llvm::ErrorOr<fs::perms> Mode = fs::getPermissions(join(TargetRoot, Change.Path));
  if (!Mode)
    return llvm::Error::success(); // A new file: the default mode.
  if (std::error_code EC = fs::setPermissions(Staged, *Mode))
    return llvm::createStringError(EC, "cannot set the mode of %s: %s", Staged.c_str(),
                                   EC.message().c_str());
  return llvm::Error::success();
}

llvm::Error moveFile(const std::string &From, const std::string &To) {
  if (std::error_code EC = fs::create_directories(path::parent_path(To)))
    return llvm::createStringError(EC, "cannot create the folder of %s: %s", To.c_str(),
                                   EC.message().c_str());
  if (std::error_code EC = fs::rename(From, To))
    return llvm::createStringError(EC, "cannot move %s to %s: %s", From.c_str(), To.c_str(),
                                   EC.message().c_str());
  return llvm::Error::success();
}

/// Target folders that do not exist yet, outermost first: a rollback removes
/// them again (innermost first) so that no empty folder is left behind.
std::vector<std::string> missingFolders(const StagingPaths &P,
                                        const std::vector<FileChange> &Changes) {
  std::vector<std::string> Missing;
  for (const FileChange &Change : Changes) {
    if (Change.Remove)
      continue;
    std::vector<std::string> Chain;
    for (llvm::StringRef Dir = path::parent_path(Change.Path, path::Style::posix); !Dir.empty();
         Dir = path::parent_path(Dir, path::Style::posix))
      if (!fs::exists(join(P.Root, Dir)))
        Chain.push_back(Dir.str());
    for (auto It = Chain.rbegin(); It != Chain.rend(); ++It)
      if (std::find(Missing.begin(), Missing.end(), *It) == Missing.end())
        Missing.push_back(*It);
  }
  return Missing;
}

enum class EntryKind { Missing, File, Folder, Other };

/// What is at `Path`, without following a symbolic link (a link is Other).
EntryKind entryAt(const std::string &Path) {
  fs::file_status Status;
  if (fs::status(Path, Status, /*follow=*/false))
    return EntryKind::Missing;
  switch (Status.type()) {
  case fs::file_type::regular_file:
    return EntryKind::File;
  case fs::file_type::directory_file:
    return EntryKind::Folder;
  case fs::file_type::file_not_found:
    return EntryKind::Missing;
  default:
    return EntryKind::Other;
  }
}

std::optional<std::string> sha256Of(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return sha256Hex((*Buffer)->getBuffer());
}

/// Every component of `Rel` below `Base` that exists is a real folder (the
/// last one may be a file): nothing on the way is a symbolic link.
bool noLinkOnTheWay(const std::string &Base, llvm::StringRef Rel) {
  std::string Prefix = Base;
  for (auto It = path::begin(Rel, path::Style::posix), End = path::end(Rel); It != End; ++It) {
    Prefix = join(Prefix, *It);
    EntryKind Kind = entryAt(Prefix);
    if (Kind == EntryKind::Missing)
      return true;
    if (Kind == EntryKind::Other)
      return false;
  }
  return true;
}

/// Reads and checks a journal; every problem is an InputError naming it.
class JournalReader {
public:
  explicit JournalReader(const StagingPaths &P) : P(P) {}

  llvm::Expected<InterruptedCommit> read() {
    InterruptedCommit Plan;
    Plan.HasJournal = true;
    if (entryAt(P.Journal) != EntryKind::File)
      return refuse("it is not a regular file");
    auto Buffer = llvm::MemoryBuffer::getFile(P.Journal);
    if (!Buffer)
      return refuse("cannot read it: " + Buffer.getError().message());
    llvm::Expected<json> Doc = parseJsonText((*Buffer)->getBuffer(), P.Journal);
    if (!Doc)
      return refuse(llvm::toString(Doc.takeError()));
    if (!Doc->is_object() || Doc->value("schema", "") != JournalSchema ||
        !Doc->contains("changes") || !(*Doc)["changes"].is_array() ||
        !Doc->contains("created_folders") || !(*Doc)["created_folders"].is_array())
      return refuse(std::string("not an ") + JournalSchema + " journal");
    const json &Changes = (*Doc)["changes"];
    for (auto It = Changes.rbegin(); It != Changes.rend(); ++It)
      if (llvm::Error E = planChange(*It, Plan))
        return E;
    for (auto It = (*Doc)["created_folders"].rbegin(); It != (*Doc)["created_folders"].rend();
         ++It) {
      if (!It->is_string() || !safePath(It->get<std::string>()))
        return refuse("a created folder is not a plain path inside the target");
      Plan.Folders.push_back(It->get<std::string>());
    }
    return Plan;
  }

private:
  llvm::Error refuse(const std::string &Why) const {
    return inputError("cannot recover the interrupted migration in ", P.Root, ": journal ",
                      P.Journal, ": ", Why,
                      "; nothing was changed: restore the target from version control and "
                      "remove ",
                      P.Staging);
  }

  /// Relative, no `..`, no NUL, not into the staging folder, no link on the
  /// way in the target or in the backup folder.
  bool safePath(const std::string &Rel) const {
    return isContainedRelativePath(Rel) &&
           path::begin(Rel, path::Style::posix)->str() != StagingDirName &&
           noLinkOnTheWay(P.Root, Rel) && noLinkOnTheWay(P.Backup, Rel) &&
           noLinkOnTheWay(P.New, Rel);
  }

  llvm::Error planChange(const json &Change, InterruptedCommit &Plan) const {
    if (!Change.is_object() || !Change.contains("path") || !Change["path"].is_string() ||
        !Change.contains("had_original") || !Change["had_original"].is_boolean())
      return refuse("a change lacks its path or had_original");
    std::string Rel = Change["path"].get<std::string>();
    if (!safePath(Rel))
      return refuse("'" + llvm::StringRef(Rel).split('\0').first.str() +
                    "' is not a plain path inside the target");
    std::string NewSha = Change.value("new_sha256", "");
    std::string Target = join(P.Root, Rel);
    EntryKind Now = entryAt(Target);
    // The run wrote the target only if it is exactly what was staged.
    bool OursNow = Now == EntryKind::File && !NewSha.empty() && sha256Of(Target) == NewSha;
    EntryKind Backup = entryAt(join(P.Backup, Rel));
    if (Backup == EntryKind::File) {
      if (Now != EntryKind::Missing && !OursNow)
        return refuse(Rel + " changed since the interrupted run");
      Plan.Restored.push_back(Rel);
    } else if (Backup != EntryKind::Missing) {
      return refuse("the backup of " + Rel + " is not a regular file");
    } else if (!Change["had_original"].get<bool>() && Now != EntryKind::Missing &&
               entryAt(join(P.New, Rel)) == EntryKind::Missing) {
      // Created by the interrupted run (its staged copy was moved out).
      if (!OursNow)
        return refuse(Rel + " changed since the interrupted run");
      Plan.Removed.push_back(Rel);
    }
    return llvm::Error::success();
  }

  const StagingPaths &P;
};

/// Undoes what `Plan` lists; the checks were made when it was read.
llvm::Error applyRollBack(const StagingPaths &P, const InterruptedCommit &Plan) {
  for (const std::string &Rel : Plan.Removed)
    if (std::error_code EC = fs::remove(join(P.Root, Rel)))
      return llvm::createStringError(EC, "cannot remove %s: %s", Rel.c_str(), EC.message().c_str());
  for (const std::string &Rel : Plan.Restored) {
    std::string Target = join(P.Root, Rel);
    fs::remove(Target);
    if (llvm::Error E = moveFile(join(P.Backup, Rel), Target))
      return E;
  }
  for (const std::string &Folder : Plan.Folders)
    fs::remove(join(P.Root, Folder)); // Only removes it when empty.
  return llvm::Error::success();
}

/// The staging folder must be a folder opmig made: a link or a file there
/// is somebody else's, and is neither followed nor removed.
llvm::Error checkStagingFolder(const StagingPaths &P) {
  EntryKind Kind = entryAt(P.Staging);
  if (Kind == EntryKind::Missing || Kind == EntryKind::Folder)
    return llvm::Error::success();
  return inputError(P.Staging,
                    " is not a folder opmig made (a symbolic link or a file); opmig neither "
                    "follows nor removes it: look at it, and remove it by hand");
}

/// Holds SIGINT, SIGTERM and SIGHUP back while alive; one that arrived is
/// delivered when the commit is complete.
class SignalsHeldBack {
public:
  SignalsHeldBack() {
    sigset_t Held;
    sigemptyset(&Held);
    for (int Signal : {SIGINT, SIGTERM, SIGHUP})
      sigaddset(&Held, Signal);
    sigprocmask(SIG_BLOCK, &Held, &Previous);
  }
  ~SignalsHeldBack() { sigprocmask(SIG_SETMASK, &Previous, nullptr); }

private:
  sigset_t Previous;
};

} // namespace

llvm::Error checkTargetPath(const std::string &TargetRoot, const std::string &Path) {
  llvm::StringRef Rel(Path);
  if (Rel.empty() || path::is_absolute(Rel) || path::is_absolute(Rel, path::Style::windows))
    return inputError("refusing to write '", Path, "': paths must be relative to the target root");
  if (Rel.contains('\0'))
    return inputError("refusing to write '", Rel.split('\0').first.str(),
                      "<NUL>...': a NUL would cut the path short");
  if (*path::begin(Rel, path::Style::posix) == StagingDirName)
    return inputError("refusing to write '", Path, "': ", StagingDirName, " is opmig's own");
  std::string Prefix = TargetRoot;
  for (auto It = path::begin(Rel, path::Style::posix), End = path::end(Rel); It != End; ++It) {
    if (*It == ".." || *It == ".")
      return inputError("refusing to write '", Path, "': '", It->str(),
                        "' components could leave the target root");
    Prefix = join(Prefix, *It);
    if (fs::is_symlink_file(Prefix))
      return inputError("refusing to write '", Path, "': ", Prefix,
                        " is a symbolic link, which could lead outside the target; replace it "
                        "with a real folder or file");
  }
  return llvm::Error::success();
}

llvm::Expected<std::optional<InterruptedCommit>> inspectInterrupted(const std::string &TargetRoot) {
  StagingPaths P(TargetRoot);
  if (llvm::Error E = checkStagingFolder(P))
    return E;
  if (entryAt(P.Staging) == EntryKind::Missing)
    return std::nullopt;
  for (const std::string &Inner : {P.New, P.Backup})
    if (EntryKind Kind = entryAt(Inner); Kind != EntryKind::Missing && Kind != EntryKind::Folder)
      return inputError(Inner, " is not a folder opmig made; remove ", P.Staging, " by hand");
  if (entryAt(P.Journal) == EntryKind::Missing)
    return InterruptedCommit{}; // Died before the journal, or after the commit point.
  llvm::Expected<InterruptedCommit> Plan = JournalReader(P).read();
  if (!Plan)
    return Plan.takeError();
  return std::move(*Plan);
}

llvm::Expected<bool> recoverInterrupted(const std::string &TargetRoot) {
  llvm::Expected<std::optional<InterruptedCommit>> Plan = inspectInterrupted(TargetRoot);
  if (!Plan)
    return Plan.takeError();
  if (!*Plan)
    return false;
  StagingPaths P(TargetRoot);
  if (llvm::Error E = applyRollBack(P, **Plan))
    return llvm::createStringError(std::errc::io_error,
                                   "cannot recover the interrupted migration in %s: %s; the "
                                   "journal is kept in %s, so the next run tries again",
                                   TargetRoot.c_str(), llvm::toString(std::move(E)).c_str(),
                                   P.Staging.c_str());
  // The journal goes first: without it, what is left is plain litter.
  fs::remove(P.Journal);
  if (std::error_code EC = fs::remove_directories(P.Staging))
    return llvm::createStringError(EC, "cannot remove %s: %s", P.Staging.c_str(),
                                   EC.message().c_str());
  return true;
}

namespace {

json journalOf(const StagingPaths &P, const std::vector<FileChange> &Changes) {
  json Journal = {{"schema", JournalSchema},
                  {"changes", json::array()},
                  {"created_folders", missingFolders(P, Changes)}};
  for (const FileChange &Change : Changes) {
    json Entry = {{"path", Change.Path}, {"had_original", fs::exists(join(P.Root, Change.Path))}};
    if (!Change.Remove)
      Entry["new_sha256"] = sha256Hex(Change.Content);
    Journal["changes"].push_back(std::move(Entry));
  }
  return Journal;
}

void notify(const CommitHooks &Hooks, CommitStep Step, unsigned Moves) {
  if (Hooks.AtStep)
    Hooks.AtStep(Step, Moves);
}

/// Moves every file into place; the first failure rolls back what moved.
llvm::Error moveAll(const StagingPaths &P, const std::vector<FileChange> &Changes,
                    const CommitHooks &Hooks) {
  unsigned Moves = 0;
  for (const FileChange &Change : Changes) {
    std::string Target = join(P.Root, Change.Path);
    llvm::Error E = llvm::Error::success();
    if (fs::exists(Target))
      E = moveFile(Target, join(P.Backup, Change.Path));
    if (!E && !Change.Remove)
      E = moveFile(join(P.New, Change.Path), Target);
    if (E) {
      if (llvm::Expected<bool> Undone = recoverInterrupted(P.Root); !Undone)
        return llvm::joinErrors(std::move(E), Undone.takeError());
      return E;
    }
    ++Moves;
    if (Hooks.AfterMove)
      Hooks.AfterMove(Moves);
    notify(Hooks, CommitStep::Moved, Moves);
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error commitChanges(const std::string &TargetRoot, const std::vector<FileChange> &Changes,
                          const CommitHooks &Hooks) {
  if (llvm::Expected<bool> Recovered = recoverInterrupted(TargetRoot); !Recovered)
    return Recovered.takeError();
  for (const FileChange &Change : Changes)
    if (llvm::Error E = checkTargetPath(TargetRoot, Change.Path))
      return E;
  StagingPaths P(TargetRoot);
  // mkdir fails on anything already there, a link included: the folder is ours.
  if (std::error_code EC = fs::create_directory(P.Staging, /*IgnoreExisting=*/false))
    return llvm::createStringError(EC, "cannot create %s: %s", P.Staging.c_str(),
                                   EC.message().c_str());
  // Declared before DropStaging, so that a held signal arrives only after
  // the staging folder is gone.
  std::optional<SignalsHeldBack> Held;
  bool KeepStaging = false;
  llvm::scope_exit DropStaging([&] {
    if (!KeepStaging)
      fs::remove_directories(P.Staging);
  });

  for (const FileChange &Change : Changes)
    if (!Change.Remove)
      if (llvm::Error E = stageFile(TargetRoot, P.New, Change))
        return E;
  std::string PendingJournal = P.Journal + ".tmp";
  if (llvm::Error E = writeFile(PendingJournal, dumpJson(journalOf(P, Changes), 1)))
    return E;
  notify(Hooks, CommitStep::Staged, 0);

  // Held until the staging folder is gone: a signal now ends the process
  // only after the commit is complete (or rolled back).
  Held.emplace();
  if (std::error_code EC = fs::rename(PendingJournal, P.Journal))
    return llvm::createStringError(EC, "cannot write %s: %s", P.Journal.c_str(),
                                   EC.message().c_str());
  notify(Hooks, CommitStep::JournalWritten, 0);
  if (llvm::Error E = moveAll(P, Changes, Hooks)) {
    KeepStaging = fs::exists(P.Journal); // A failed rollback keeps what the next run needs.
    return E;
  }
  notify(Hooks, CommitStep::AllMoved, Changes.size());
  // The commit point: without the journal, nothing will be rolled back.
  if (std::error_code EC = fs::remove(P.Journal)) {
    llvm::Error Failed = llvm::createStringError(EC, "cannot remove %s: %s", P.Journal.c_str(),
                                                 EC.message().c_str());
    if (llvm::Expected<bool> Undone = recoverInterrupted(TargetRoot); !Undone)
      return llvm::joinErrors(std::move(Failed), Undone.takeError());
    return Failed;
  }
  notify(Hooks, CommitStep::JournalRemoved, Changes.size());
  return llvm::Error::success();
}

} // namespace opmig::migrate
