//===- TemporaryScript.h - A compiled-in helper, written out to run -*- C++ -*-===//
//
// The harnesses are compiled into the binary (no data file beside it); to
// run one, it is written to a private temporary folder, removed afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LIB_TEMPORARYSCRIPT_H
#define OPMIG_VALIDATE_LIB_TEMPORARYSCRIPT_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace opmig::validate {

class TemporaryScript {
public:
  TemporaryScript(llvm::StringRef FileName, llvm::StringRef Text) {
    llvm::SmallString<128> Dir;
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("opmig-validate", Dir)) {
      Problem = "cannot create a temporary folder: " + EC.message();
      return;
    }
    Folder = std::string(Dir);
    Path = Folder + "/" + FileName.str();
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      Problem = "cannot write " + Path + ": " + EC.message();
    else
      OS << Text;
  }
  ~TemporaryScript() {
    if (!Folder.empty())
      llvm::sys::fs::remove_directories(Folder);
  }
  TemporaryScript(const TemporaryScript &) = delete;
  TemporaryScript &operator=(const TemporaryScript &) = delete;

  std::string Path;
  std::string Problem; ///< Empty when the script was written.

private:
  std::string Folder;
};

} // namespace opmig::validate

#endif
