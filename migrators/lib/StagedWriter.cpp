#include "opmig/migrate/StagedWriter.h"

#include "nlohmann/json.hpp"
#include "opmig/analyze/Errors.h"

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

void rollBack(const StagingPaths &P, const json &Journal) {
  const json &Changes = Journal.at("changes");
  for (auto It = Changes.rbegin(); It != Changes.rend(); ++It) {
    std::string Rel = It->at("path").get<std::string>();
    std::string Target = join(P.Root, Rel), Backup = join(P.Backup, Rel);
    if (fs::exists(Backup)) {
      fs::remove(Target);
      fs::rename(Backup, Target);
    } else if (!It->at("had_original").get<bool>()) {
      fs::remove(Target);
    }
  }
  const json &Created = Journal.at("created_folders");
  for (auto It = Created.rbegin(); It != Created.rend(); ++It)
    fs::remove(join(P.Root, It->get<std::string>())); // Only removes it when empty.
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

llvm::Expected<bool> recoverInterrupted(const std::string &TargetRoot) {
  StagingPaths P(TargetRoot);
  if (!fs::exists(P.Staging))
    return false;
  if (fs::exists(P.Journal)) {
    auto Buffer = llvm::MemoryBuffer::getFile(P.Journal);
    if (!Buffer)
      return llvm::createStringError(Buffer.getError(), "cannot read %s", P.Journal.c_str());
    try {
      rollBack(P, json::parse((*Buffer)->getBuffer()));
    } catch (const json::exception &E) {
      return llvm::createStringError(std::errc::invalid_argument,
                                     "cannot recover the interrupted migration in %s: %s; "
                                     "restore the target from version control and remove %s",
                                     TargetRoot.c_str(), E.what(), P.Staging.c_str());
    }
  }
  if (std::error_code EC = fs::remove_directories(P.Staging))
    return llvm::createStringError(EC, "cannot remove %s: %s", P.Staging.c_str(),
                                   EC.message().c_str());
  return true;
}

llvm::Error commitChanges(const std::string &TargetRoot, const std::vector<FileChange> &Changes,
                          const CommitHooks &Hooks) {
  if (llvm::Expected<bool> Recovered = recoverInterrupted(TargetRoot); !Recovered)
    return Recovered.takeError();
  for (const FileChange &Change : Changes)
    if (llvm::Error E = checkTargetPath(TargetRoot, Change.Path))
      return E;
  StagingPaths P(TargetRoot);
  llvm::scope_exit DropStaging([&] { fs::remove_directories(P.Staging); });

  for (const FileChange &Change : Changes)
    if (!Change.Remove)
      if (llvm::Error E = writeFile(join(P.New, Change.Path), Change.Content))
        return E;

  json Journal = {{"changes", json::array()}, {"created_folders", missingFolders(P, Changes)}};
  for (const FileChange &Change : Changes)
    Journal["changes"].push_back(
        {{"path", Change.Path}, {"had_original", fs::exists(join(P.Root, Change.Path))}});
  std::string PendingJournal = P.Journal + ".tmp";
  if (llvm::Error E = writeFile(PendingJournal, Journal.dump(1)))
    return E;

  SignalsHeldBack Held;
  // From here on the journal exists: an interrupted run is rolled back.
  if (std::error_code EC = fs::rename(PendingJournal, P.Journal))
    return llvm::createStringError(EC, "cannot write %s: %s", P.Journal.c_str(),
                                   EC.message().c_str());
  unsigned Moves = 0;
  for (const FileChange &Change : Changes) {
    std::string Target = join(P.Root, Change.Path);
    llvm::Error E = llvm::Error::success();
    if (fs::exists(Target))
      E = moveFile(Target, join(P.Backup, Change.Path));
    if (!E && !Change.Remove)
      E = moveFile(join(P.New, Change.Path), Target);
    if (E) {
      rollBack(P, Journal);
      return E;
    }
    if (Hooks.AfterMove)
      Hooks.AfterMove(++Moves);
  }
  return llvm::Error::success();
}

} // namespace opmig::migrate
