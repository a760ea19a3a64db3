#include "UnifiedDiff.h"

#include "opmig/support/CommandRunner.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace opmig {

namespace fs = llvm::sys::fs;

namespace {

llvm::Expected<std::string> temporaryWith(const std::string &Content) {
  llvm::SmallString<128> Path;
  int FD = -1;
  if (std::error_code EC = fs::createTemporaryFile("opmig-diff", "txt", FD, Path))
    return llvm::createStringError(EC, "cannot create a temporary file for the diff");
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Content;
  return std::string(Path);
}

} // namespace

llvm::Expected<std::string> unifiedDiff(const std::string &Path, const std::string &Old,
                                        const std::string &New, bool OldExists, bool NewExists) {
  if (Old == New && OldExists == NewExists)
    return "";
  llvm::ErrorOr<std::string> Diff = llvm::sys::findProgramByName("diff");
  if (!Diff)
    return llvm::createStringError(Diff.getError(),
                                   "--dry-run needs the `diff` program (Debian: diffutils)");
  llvm::Expected<std::string> OldFile = temporaryWith(Old), NewFile = temporaryWith(New);
  if (!OldFile || !NewFile)
    return llvm::joinErrors(OldFile.takeError(), NewFile.takeError());
  llvm::scope_exit Cleanup([&] {
    fs::remove(*OldFile);
    fs::remove(*NewFile);
  });
  std::string OldLabel = OldExists ? "a/" + Path : "/dev/null";
  std::string NewLabel = NewExists ? "b/" + Path : "/dev/null";
  CommandOptions Options;
  Options.KeepStderr = false;
  CommandRun Run = runCommand(
      {*Diff, "-u", "--label", OldLabel, "--label", NewLabel, *OldFile, *NewFile}, Options);
  // diff exits with 1 when the files differ, 2 on trouble.
  if (!Run.Finished || Run.ExitCode > 1)
    return llvm::createStringError(std::errc::io_error, "diff failed on %s", Path.c_str());
  return Run.Output;
}

} // namespace opmig
