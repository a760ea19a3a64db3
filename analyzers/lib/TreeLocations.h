//===- TreeLocations.h - Map Clang locations to source-tree files -*- C++ -*-===//
//
// Facts are only kept for code inside the analysed tree. This maps a
// SourceLocation to the absolute real path of its file (after macro
// expansion) and tells whether that file is inside the tree, caching per
// FileID since every visited node asks.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_LIB_TREELOCATIONS_H
#define OPMIG_ANALYZE_LIB_TREELOCATIONS_H

#include "opmig/analyze/SourceTree.h"
#include "opmig/support/Paths.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace opmig::analyze {

class TreeLocations {
public:
  TreeLocations(const clang::SourceManager &SM, TreeScope Scope)
      : SM(SM), Scope(std::move(Scope)) {}

  /// Absolute path of the file holding `Loc` (its expansion), or empty.
  const std::string &fileOf(clang::SourceLocation Loc);
  const std::string &fileOf(clang::FileID FID);
  bool inTree(clang::SourceLocation Loc) { return isTreePath(fileOf(Loc)); }
  bool isTreePath(const std::string &Path) const { return Scope.contains(Path); }
  unsigned lineOf(clang::SourceLocation Loc) const;
  unsigned offsetOf(clang::SourceLocation Loc) const;

  const clang::SourceManager &sourceManager() const { return SM; }

private:
  const clang::SourceManager &SM;
  TreeScope Scope;
  llvm::DenseMap<clang::FileID, std::string> Paths;
};

/// Absolute, symlink-free form of `Path` (falls back to a lexically
/// normalized absolute path when the file does not exist).
std::string realPathOf(llvm::StringRef Path);

} // namespace opmig::analyze

#endif
