//===- UpstreamBuildFlags.h - Flags an upstream's own build declares -*- C++ -*-===//
//
// Without a compile database, the flags a tree is built with are still
// written down in its build files: `setup.py` (extension arguments, read on
// CPython's own `ast`) and `CMakeLists.txt` (standard, definitions, include
// directories). Only what can be read statically counts: a value computed at
// build time is not guessed.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_UPSTREAMBUILDFLAGS_H
#define OPMIG_ANALYZE_UPSTREAMBUILDFLAGS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::analyze {

struct UpstreamBuildFlags {
  unsigned CxxStandard = 0;             ///< 0 when no file states one.
  std::vector<std::string> Defines;     ///< `-DNAME[=VALUE]` and `-UNAME`, in order.
  std::vector<std::string> IncludeDirs; ///< Absolute directories inside the tree.
  /// nvcc flags a build of the migrated code needs too: those that change
  /// which code nvcc accepts (`--expt-relaxed-constexpr`) and those that
  /// change what the device code computes (`--use_fast_math`, `--ftz=`,
  /// `--prec-div=`, `--prec-sqrt=`, `--fmad=`) or its register budget
  /// (`--maxrregcount=`). Spelled `--flag`, in order of appearance.
  std::vector<std::string> NvccFlags;
  std::vector<std::string> ReadFrom; ///< Build files that contributed, tree-relative.
};

/// Reads `setup.py` (with `Python`, when not empty) and `CMakeLists.txt` at
/// `Root`. Missing or unreadable files contribute nothing.
UpstreamBuildFlags readUpstreamBuildFlags(const std::string &Root, const std::string &Python);

/// The CMake half, for a file's text; include dirs are relative to `Root`.
void readCMakeFlags(llvm::StringRef Text, const std::string &Root, UpstreamBuildFlags &Flags);

} // namespace opmig::analyze

#endif
