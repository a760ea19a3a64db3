//===- SourceTree.h - The files of an upstream tree -------------*- C++ -*-===//
//
// Walks `--source` once: finds the translation units and headers, the
// submodule directories, and whatever is odd about the tree (symlink loops,
// links leaving the tree, files that are not UTF-8), and hashes every file so
// later stages (the token index, the cache) never read it again.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_SOURCETREE_H
#define OPMIG_ANALYZE_SOURCETREE_H

#include "opmig/analyze/AnalysisResult.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::analyze {

/// What belongs to the analysed tree: files under `Root`, except those in
/// submodule directories, which are external dependencies.
struct TreeScope {
  std::string Root;                      ///< Absolute real path.
  std::vector<std::string> ExcludedDirs; ///< Absolute.

  bool contains(llvm::StringRef Path) const;
};

struct SourceFile {
  std::string Path; ///< Absolute real path.
  std::string Content;
  std::string Hash; ///< xxh3 of the content, hex.
  bool IsTranslationUnit = false;
};

struct SourceTree {
  std::string Root;              ///< Absolute real path, no trailing separator.
  std::vector<SourceFile> Files; ///< Sorted by path.
  /// Submodule directories (from `.gitmodules` or a `.git` file), relative;
  /// they may be absent from disk.
  std::vector<std::string> SubmoduleDirs;
  std::vector<Finding> Diagnostics;

  const SourceFile *find(const std::string &Path) const;
  std::string relative(const std::string &Path) const;
  /// Root minus the submodule directories.
  TreeScope scope() const;
  bool contains(const std::string &Path) const { return scope().contains(Path); }
};

/// Reads the tree under `Root`, leaving submodule directories out. Fails with an InputError when
/// `Root` is not a readable directory or holds no translation unit.
llvm::Expected<SourceTree> readSourceTree(const std::string &Root);

} // namespace opmig::analyze

#endif
