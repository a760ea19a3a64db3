#include "opmig/support/CapturedOutput.h"

#include "opmig/support/CommandRunner.h"

namespace opmig {

std::optional<std::string> captureOutput(llvm::StringRef Program,
                                         llvm::ArrayRef<llvm::StringRef> Argv,
                                         unsigned SecondsToWait) {
  std::vector<std::string> Command(Argv.begin(), Argv.end());
  Command.front() = Program.str();
  CommandOptions Options;
  Options.TimeoutSeconds = SecondsToWait;
  Options.KeepStderr = false;
  CommandRun Run = runCommand(Command, Options);
  if (!Run.succeeded())
    return std::nullopt;
  return Run.Output;
}

} // namespace opmig
