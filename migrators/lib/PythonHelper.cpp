//===- PythonHelper.cpp - Running an embedded Python helper ---------------===//

#include "opmig/migrate/PythonHelper.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace opmig::migrate {

namespace {

/// A traceback's last lines say what went wrong.
constexpr size_t StderrTail = 2000;

struct TemporaryFile {
  llvm::SmallString<128> Path;
  std::optional<llvm::FileRemover> Remover;
};

llvm::Error createTemporary(llvm::StringRef Suffix, TemporaryFile &File) {
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("opmig-py", Suffix, File.Path))
    return llvm::createStringError(EC, "cannot create a temporary file for a Python helper");
  File.Remover.emplace(File.Path);
  return llvm::Error::success();
}

llvm::Expected<std::string> readWhole(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read %s", Path.str().c_str());
  return (*Buffer)->getBuffer().str();
}

} // namespace

llvm::Expected<std::string> runPythonHelper(llvm::StringRef Python, llvm::StringRef Script,
                                            llvm::ArrayRef<llvm::StringRef> Args,
                                            llvm::StringRef Input, unsigned TimeoutSeconds,
                                            llvm::StringRef What) {
  TemporaryFile In, Out, Err;
  for (auto [Suffix, File] : {std::pair{"in", &In}, {"out", &Out}, {"err", &Err}})
    if (llvm::Error E = createTemporary(Suffix, *File))
      return E;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(In.Path, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write the request of %s", What.str().c_str());
    OS << Input;
  }
  std::vector<llvm::StringRef> Argv = {Python, "-I", "-S", "-c", Script};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(In.Path), llvm::StringRef(Out.Path),
                                                llvm::StringRef(Err.Path)};
  std::string ExecError;
  int Code = llvm::sys::ExecuteAndWait(Python, Argv, std::nullopt, Redirects, TimeoutSeconds, 0,
                                       &ExecError);
  if (Code == 0)
    return readWhole(Out.Path);
  std::string Detail = ExecError;
  if (llvm::Expected<std::string> Stderr = readWhole(Err.Path); !Stderr)
    llvm::consumeError(Stderr.takeError());
  else if (Detail.empty())
    Detail = Stderr->size() > StderrTail ? Stderr->substr(Stderr->size() - StderrTail) : *Stderr;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s failed with exit code %d: %s",
                                 What.str().c_str(), Code, Detail.c_str());
}

} // namespace opmig::migrate
