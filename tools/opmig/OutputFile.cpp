#include "OutputFile.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

namespace {

bool isPlainFileOrAbsent(const std::string &Path) {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status, /*Follow=*/false))
    return true; // absent, or unreadable: the temporary file's creation says why
  return Status.type() == llvm::sys::fs::file_type::regular_file;
}

llvm::Error writeInPlace(const std::string &Path, const std::string &Content) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    return inputError("cannot write output file '", Path, "': ", EC.message());
  OS << Content;
  OS.close();
  if (OS.has_error()) {
    OS.clear_error();
    return inputError("cannot write output file '", Path, "': write failed");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error writeOutput(const std::string &Path, const std::string &Content) {
  if (Path.empty() || Path == "-") {
    llvm::outs() << Content;
    llvm::outs().flush();
    return llvm::Error::success();
  }
  if (!isPlainFileOrAbsent(Path))
    return writeInPlace(Path, Content);
  llvm::SmallString<256> Temp;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Temp))
    return inputError("cannot write output file '", Path, "': ", EC.message(),
                      "; check that its directory exists and is writable");
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Content;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return inputError("cannot write output file '", Path, "': write failed (disk full?)");
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return inputError("cannot write output file '", Path, "': ", EC.message());
  }
  return llvm::Error::success();
}

} // namespace opmig
