//===- CommandRunner.cpp - Run a tool, keep its first error --------------===//

#include "opmig/support/CommandRunner.h"

#include "opmig/support/NvccCheck.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <optional>

namespace opmig {

std::string CommandRun::firstError() const {
  if (succeeded())
    return "";
  if (!Finished)
    return Problem.empty() ? Program + " did not finish" : Problem;
  std::string Error = firstErrorIn(Output);
  if (Error.empty())
    Error = Program + " exited with status " + std::to_string(ExitCode);
  return Error;
}

CommandRun runCommand(const std::vector<std::string> &Command, const CommandOptions &Options) {
  CommandRun Run;
  Run.Program = llvm::sys::path::filename(Command.front()).str();
  llvm::SmallString<128> LogPath(Options.LogPath);
  if (LogPath.empty())
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-run", "log", LogPath)) {
      Run.Problem = "cannot create a log file: " + EC.message();
      return Run;
    }
  // A log the caller named stays; a temporary one goes.
  llvm::FileRemover RemoveLog(LogPath, Options.LogPath.empty());
  llvm::SmallVector<llvm::StringRef> Argv(Command.begin(), Command.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(LogPath),
                                                Options.KeepStderr ? llvm::StringRef(LogPath)
                                                                   : llvm::StringRef("")};
  bool ExecutionFailed = false;
  int Code = llvm::sys::ExecuteAndWait(Command.front(), Argv, std::nullopt, Redirects,
                                       Options.TimeoutSeconds, 0, &Run.Problem, &ExecutionFailed);
  // ExecuteAndWait returns -1 when it could not run the program and -2 on a
  // signal or the timeout.
  Run.Finished = !ExecutionFailed && Code >= 0;
  Run.ExitCode = Code;
  if (auto Log = llvm::MemoryBuffer::getFile(LogPath))
    Run.Output = (*Log)->getBuffer().str();
  return Run;
}

std::string firstErrorIn(llvm::StringRef Output) {
  std::vector<CompilerError> Errors = parseCompilerErrors(Output);
  if (!Errors.empty())
    return Errors.front().File + ":" + std::to_string(Errors.front().Line) + ": " +
           Errors.front().Message;
  llvm::SmallVector<llvm::StringRef> Lines;
  Output.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.contains("error") || Line.contains("multiple definition") ||
        Line.contains("undefined reference"))
      return Line.trim().str();
  return "";
}

} // namespace opmig
