//===- TokenIndex.h - Which files mention which names -----------*- C++ -*-===//
//
// A cheap, whole-tree index built without parsing: the identifiers and string
// literals of every file (Clang's raw lexer) and the in-tree include graph
// (Clang's dependency-directives scanner, all branches taken). It answers
// "which TUs could define or instantiate `f`?" so that only those are
// parsed. It is an over-approximation by design; the parse is exact.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_ANALYZE_TOKENINDEX_H
#define OPMIG_ANALYZE_TOKENINDEX_H

#include "opmig/analyze/SourceTree.h"

#include "llvm/ADT/StringMap.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace opmig::analyze {

class TokenIndex {
public:
  /// Indexes every file of `Tree`; `IncludeDirs` are the absolute `-I` dirs
  /// used to resolve include spellings to tree files.
  TokenIndex(const SourceTree &Tree, const std::vector<std::string> &IncludeDirs);

  /// The fewest TUs whose parses see every file mentioning `Name`
  /// (identifier or string literal): each TU that mentions it, and for each
  /// header that does, the first TU including it. Files in `Skip` (already
  /// seen by a parse) are left out.
  std::vector<std::string> tusCovering(llvm::StringRef Name,
                                       const std::set<std::string> &Skip) const;
  /// Like tusCovering, for the files whose tokens look like a definition of
  /// `Name` (`Name(...) {`, `struct Name {`): where to look first.
  std::vector<std::string> tusCoveringDefinitions(llvm::StringRef Name,
                                                  const std::set<std::string> &Skip) const;
  /// Every TU including `File`, directly or not (all branches taken).
  std::vector<std::string> tusReaching(const std::string &File) const;
  /// Identifiers that appear followed by `(`: names a user could mean.
  std::vector<std::string> callableNames() const;
  /// In-tree include edges resolved without parsing, for statistics.
  size_t includeEdgeCount() const { return EdgeCount; }

private:
  struct FileEntry {
    std::string Path;
    bool IsTranslationUnit = false;
    std::vector<unsigned> Includes; ///< Indices into Files.
  };

  void indexFile(unsigned Index, const SourceFile &File,
                 const std::vector<std::string> &IncludeDirs, const SourceTree &Tree);
  std::vector<std::string> tusCoveringFiles(const llvm::StringMap<std::vector<unsigned>> &ByName,
                                            llvm::StringRef Name,
                                            const std::set<std::string> &Skip) const;
  /// For each file, whether each TU reaches it, computed on first use.
  const std::vector<bool> &reachedFrom(unsigned TU) const;

  std::vector<FileEntry> Files;
  llvm::StringMap<std::vector<unsigned>> Mentions;         ///< Name -> files, ascending.
  llvm::StringMap<std::vector<unsigned>> DefinitionShaped; ///< Likewise, definitions only.
  std::set<std::string> Callables;
  mutable std::map<unsigned, std::vector<bool>> Reach;
  size_t EdgeCount = 0;
};

} // namespace opmig::analyze

#endif
