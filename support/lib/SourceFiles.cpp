#include "opmig/support/SourceFiles.h"

#include "llvm/Support/Path.h"

namespace opmig {

bool isTranslationUnitName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx";
}

bool isSourceFileName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return isTranslationUnitName(Path) || Ext == ".h" || Ext == ".cuh" || Ext == ".hpp" ||
         Ext == ".hh" || Ext == ".hxx" || Ext == ".inl" || Ext == ".inc";
}

bool isCudaSource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".cu" || Ext == ".cuh";
}

} // namespace opmig
