//===- MarkdownTree.h - Folder trees drawn in markdown ----------*- C++ -*-===//
//
// Architecture notes draw the repository as a tree in a fenced block:
//
//   veomni/
//   ├── ops/                Optimized kernels and dispatch
//   │   ├── config/         Unified ops registry
//
// A migration that adds a folder lists it there (VeOmni's spec: "Update
// .agents/knowledge/architecture.md if the op adds a new subdirectory to
// veomni/ops/"). This finds where a folder's first child line goes and the
// glyphs it starts with; the line itself is the profile's template.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_MARKDOWNTREE_H
#define OPMIG_MIGRATE_MARKDOWNTREE_H

#include "opmig/support/BlockMarkers.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig::migrate {

/// Where a new first child of a drawn folder goes.
struct TreeChildPlacement {
  size_t Line = 0;    ///< Insert before this line.
  std::string Prefix; ///< The glyphs before the child's name: `│   ├── `.
};

/// The first child position of `Folder` (`veomni/ops/`: a line naming `ops/`
/// under one naming `veomni/`) in the first fenced tree that draws it.
std::optional<TreeChildPlacement> locateTreeFolder(const FileLines &File, llvm::StringRef Folder);

/// The glyphs `Line` starts with, before its name; empty for a line that is
/// not drawn as a tree entry.
std::string treePrefixOf(llvm::StringRef Line);

} // namespace opmig::migrate

#endif
