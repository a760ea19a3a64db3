//===- BuildCache.cpp - Builds kept in the user's cache -------------------===//

#include "BuildCache.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig::validate {

namespace fs = llvm::sys::fs;

namespace {

constexpr const char *DoneFile = "done";

llvm::Error writeText(const std::string &Path, llvm::StringRef Text) {
  std::string Temporary = Path + ".tmp";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Temporary, EC);
    if (EC)
      return llvm::createStringError(EC, "cannot write %s", Temporary.c_str());
    OS << Text;
  }
  if (std::error_code EC = fs::rename(Temporary, Path))
    return llvm::createStringError(EC, "cannot write %s", Path.c_str());
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::unique_ptr<BuildSlot>> BuildSlot::acquire(const std::string &CacheDir,
                                                              const std::string &Name) {
  std::string Dir = CacheDir + "/" + Name;
  if (std::error_code EC = fs::create_directories(Dir))
    return inputError("cannot create the build folder ", Dir, ": ", EC.message());
  int FD = -1;
  std::string Lock = Dir + ".lock";
  if (std::error_code EC = fs::openFileForWrite(Lock, FD, fs::CD_OpenAlways))
    return inputError("cannot open the build lock ", Lock, ": ", EC.message());
  if (std::error_code EC = fs::lockFile(FD)) {
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    return inputError("cannot lock ", Lock, ": ", EC.message());
  }
  return std::unique_ptr<BuildSlot>(new BuildSlot(Dir, FD));
}

BuildSlot::~BuildSlot() {
  (void)fs::unlockFile(LockFD);
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(LockFD);
}

std::optional<std::string> BuildSlot::finishedLibrary() const {
  auto Buffer = llvm::MemoryBuffer::getFile(Dir + "/" + DoneFile);
  if (!Buffer)
    return std::nullopt;
  std::string Library = (*Buffer)->getBuffer().trim().str();
  if (Library.empty() || !fs::exists(Library))
    return std::nullopt;
  return Library;
}

llvm::Error BuildSlot::clear() {
  if (std::error_code EC = fs::remove_directories(Dir))
    return llvm::createStringError(EC, "cannot empty the build folder %s", Dir.c_str());
  if (std::error_code EC = fs::create_directories(Dir))
    return llvm::createStringError(EC, "cannot create the build folder %s", Dir.c_str());
  return llvm::Error::success();
}

llvm::Error BuildSlot::finish(const std::string &Library, const std::string &KeyText) {
  if (llvm::Error E = writeText(Dir + "/key.txt", KeyText))
    return E;
  return writeText(Dir + "/" + DoneFile, Library + "\n");
}

} // namespace opmig::validate
