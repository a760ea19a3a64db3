#include "OutputFile.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

llvm::Error writeOutput(const std::string &Path, const std::string &Content) {
  if (Path.empty() || Path == "-") {
    llvm::outs() << Content;
    llvm::outs().flush();
    return llvm::Error::success();
  }
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
