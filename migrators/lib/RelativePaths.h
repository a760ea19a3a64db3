//===- RelativePaths.h - Paths that stay inside their root ------*- C++ -*-===//
//
// Profiles name templates relative to their folder and files relative to the
// target; neither may point outside. Symlinks are checked separately, where
// the file system is at hand.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_RELATIVEPATHS_H
#define OPMIG_MIGRATE_LIB_RELATIVEPATHS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

namespace opmig::migrate {

/// True for a non-empty relative path with no empty, `.` or `..` component
/// and no control character (`a/b.py`, not `/a`, `a//b`, `./a`, `a/../b` or
/// `a\0b`, which a C string would cut to `a`).
inline bool isContainedRelativePath(llvm::StringRef Path) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path) || Path.contains('\\'))
    return false;
  for (char C : Path)
    if (static_cast<unsigned char>(C) < 0x20 || C == 0x7f)
      return false;
  llvm::SmallVector<llvm::StringRef> Parts;
  Path.split(Parts, '/');
  for (llvm::StringRef Part : Parts)
    if (Part.empty() || Part == "." || Part == "..")
      return false;
  return true;
}

} // namespace opmig::migrate

#endif
