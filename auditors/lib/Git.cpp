//===- Git.cpp - The few git queries an audit makes -----------------------===//

#include "Git.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace opmig::audit {

namespace {

std::string readAll(llvm::StringRef Path) {
  auto Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

} // namespace

llvm::Expected<std::optional<GitOutput>> runGit(const std::string &Dir,
                                                const std::vector<std::string> &Args) {
  llvm::ErrorOr<std::string> Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return std::nullopt;
  llvm::SmallString<128> Out, Err;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-git", "out", Out))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover RemoveOut(Out);
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-git", "err", Err))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover RemoveErr(Err);
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Dir};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  GitOutput Result;
  std::string ExecError;
  Result.ExitCode =
      llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0, &ExecError);
  if (Result.ExitCode < 0)
    return llvm::createStringError("cannot run git: " + ExecError);
  Result.Stdout = readAll(Out);
  Result.Stderr = readAll(Err);
  return Result;
}

std::vector<std::string> splitNul(const std::string &Text) {
  std::vector<std::string> Parts;
  size_t Start = 0;
  while (Start < Text.size()) {
    size_t End = Text.find('\0', Start);
    if (End == std::string::npos)
      End = Text.size();
    if (End > Start)
      Parts.push_back(Text.substr(Start, End - Start));
    Start = End + 1;
  }
  return Parts;
}

} // namespace opmig::audit
