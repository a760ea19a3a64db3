//===- PythonHelper.cpp - Running an embedded Python helper ---------------===//

#include "opmig/support/PythonHelper.h"

#include "ScratchDir.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

namespace opmig {

namespace {

/// A traceback's last lines say what went wrong.
constexpr size_t StderrTail = 2000;

llvm::Error writeWhole(llvm::StringRef Path, llvm::StringRef Text, llvm::StringRef What) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Text;
    OS.close();
    if (!OS.has_error())
      return llvm::Error::success();
    OS.clear_error();
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot write %s",
                                 What.str().c_str());
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
  // The request holds copies of the target's files: a private folder, gone
  // on every way out, Ctrl-C included.
  llvm::Expected<ScratchDir> Scratch = ScratchDir::create("opmig-py");
  if (!Scratch)
    return Scratch.takeError();
  std::string ScriptFile = Scratch->file("script.py"), In = Scratch->file("in"),
              Out = Scratch->file("out"), Err = Scratch->file("err");
  if (llvm::Error E = writeWhole(ScriptFile, Script, "the script of " + What.str()))
    return E;
  if (llvm::Error E = writeWhole(In, Input, "the request of " + What.str()))
    return E;
  std::vector<llvm::StringRef> Argv = {Python, "-I", "-S", ScriptFile};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(In), llvm::StringRef(Out),
                                                llvm::StringRef(Err)};
  std::string ExecError;
  int Code = llvm::sys::ExecuteAndWait(Python, Argv, std::nullopt, Redirects, TimeoutSeconds, 0,
                                       &ExecError);
  if (Code == 0)
    return readWhole(Out);
  std::string Detail = ExecError;
  if (llvm::Expected<std::string> Stderr = readWhole(Err); !Stderr)
    llvm::consumeError(Stderr.takeError());
  else if (Detail.empty())
    Detail = Stderr->size() > StderrTail ? Stderr->substr(Stderr->size() - StderrTail) : *Stderr;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s failed with exit code %d: %s",
                                 What.str().c_str(), Code, Detail.c_str());
}

} // namespace opmig
