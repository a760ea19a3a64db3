#include "opmig/support/CapturedOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace opmig {

std::optional<std::string> captureOutput(llvm::StringRef Program,
                                         llvm::ArrayRef<llvm::StringRef> Argv,
                                         unsigned SecondsToWait) {
  llvm::SmallString<128> OutputPath;
  if (llvm::sys::fs::createTemporaryFile("opmig-output", "txt", OutputPath))
    return std::nullopt;
  llvm::FileRemover RemoveOutput(OutputPath);
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""), llvm::StringRef(OutputPath),
                                                llvm::StringRef("")};
  if (llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects, SecondsToWait) != 0)
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(OutputPath);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

} // namespace opmig
