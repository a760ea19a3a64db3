#include "TreeLocations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace opmig::analyze {

std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

const std::string &TreeLocations::fileOf(clang::SourceLocation Loc) {
  static const std::string None;
  if (Loc.isInvalid())
    return None;
  return fileOf(SM.getFileID(SM.getExpansionLoc(Loc)));
}

const std::string &TreeLocations::fileOf(clang::FileID FID) {
  auto [It, Inserted] = Paths.try_emplace(FID);
  if (Inserted) {
    if (auto Entry = SM.getFileEntryRefForID(FID)) {
      llvm::StringRef Real = Entry->getFileEntry().tryGetRealPathName();
      It->second = realPathOf(Real.empty() ? Entry->getName() : Real);
    }
  }
  return It->second;
}

unsigned TreeLocations::lineOf(clang::SourceLocation Loc) const {
  return SM.getExpansionLineNumber(Loc);
}

unsigned TreeLocations::offsetOf(clang::SourceLocation Loc) const {
  return SM.getFileOffset(SM.getExpansionLoc(Loc));
}

} // namespace opmig::analyze
