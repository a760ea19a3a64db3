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

struct SourceFile {
  std::string Path; ///< Absolute real path.
  std::string Content;
  std::string Hash; ///< xxh3 of the content, hex.
  bool IsTranslationUnit = false;
};

struct SourceTree {
  std::string Root; ///< Absolute real path, no trailing separator.
  std::vector<SourceFile> Files; ///< Sorted by path.
  /// Submodule directories (from `.gitmodules` or a `.git` file), relative;
  /// they may be absent from disk.
  std::vector<std::string> SubmoduleDirs;
  std::vector<AnalysisDiagnostic> Diagnostics;

  const SourceFile *find(const std::string &Path) const;
  std::string relative(const std::string &Path) const;
  bool contains(const std::string &Path) const;
};

/// Whether `Path` names a source file opmig analyses, and whether it is a
/// translation unit (`.cu`, `.cpp`, `.cc`, `.cxx`) rather than a header.
bool isSourceFileName(llvm::StringRef Path);
bool isTranslationUnitName(llvm::StringRef Path);

/// Reads the tree under `Root`. Fails with an InputError when `Root` is not
/// a readable directory or holds no translation unit.
llvm::Expected<SourceTree> readSourceTree(const std::string &Root);

} // namespace opmig::analyze

#endif
