#include "UpstreamProbe.h"

#include "opmig/support/CapturedOutput.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <optional>

namespace opmig::migrate {

namespace {

/// Output of `git -C Dir Args...` without its trailing newline, or nullopt
/// when git is missing or fails.
std::optional<std::string> git(const std::string &Dir, std::vector<llvm::StringRef> Args) {
  static const llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return std::nullopt;
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<std::string> Output = captureOutput(*Git, Argv);
  if (!Output)
    return std::nullopt;
  return llvm::StringRef(*Output).rtrim("\n").str();
}

} // namespace

UpstreamInfo probeUpstream(const std::string &SourceRoot) {
  UpstreamInfo Info;
  std::optional<std::string> Commit = git(SourceRoot, {"rev-parse", "HEAD"});
  if (!Commit)
    return Info;
  // A tree unpacked into an ignored or untracked folder of another
  // repository is not versioned by it: that repository's commit says nothing
  // of these files.
  std::optional<std::string> Tracked = git(SourceRoot, {"ls-files", "--", "."});
  if (!Tracked || Tracked->empty())
    return Info;
  Info.Commit = *Commit;
  Info.Repo = git(SourceRoot, {"remote", "get-url", "origin"}).value_or("");
  Info.PathPrefix = git(SourceRoot, {"rev-parse", "--show-prefix"}).value_or("");
  std::optional<std::string> Status = git(SourceRoot, {"status", "--porcelain", "--", "."});
  Info.Dirty = !Status || !Status->empty();
  return Info;
}

} // namespace opmig::migrate
