//===- RenameMap.h - Namespace renames on qualified names -------*- C++ -*-===//
//
// The rename map of a migration, applied to namespace paths (`a::b`, no
// leading `::`; the global namespace is the empty path). The longest `From`
// that is the path or a prefix of it at a component boundary wins:
//
//   renames sample_ops=cache_dit::attn, sample_ops::detail=impl
//   sample_ops::detail::x  ->  impl::x
//   sample_ops::launch     ->  cache_dit::attn::launch
//   sample_opsx::y         ->  sample_opsx::y   (no partial component match)
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_RENAMEMAP_H
#define OPMIG_MIGRATE_LIB_RENAMEMAP_H

#include "opmig/migrate/SourceRewriter.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::migrate {

/// `a::b::c` -> {a, b, c}; the empty path has no components.
std::vector<std::string> splitPath(llvm::StringRef Path);
std::string joinPath(const std::vector<std::string> &Parts);
/// `a::b` + `c` -> `a::b::c`; either side may be empty.
std::string appendPath(llvm::StringRef Path, llvm::StringRef Name);
/// `a::b::c` -> `a::b`; `a` -> ``.
std::string parentPath(llvm::StringRef Path);
/// Whether `Prefix` is `Path` or encloses it (the empty path encloses all).
bool enclosesPath(llvm::StringRef Prefix, llvm::StringRef Path);

class RenameMap {
public:
  explicit RenameMap(std::vector<NamespaceRename> Renames);

  bool empty() const { return Renames.empty(); }
  /// `Path` after the longest matching rename; unchanged when none matches.
  std::string apply(llvm::StringRef Path) const;
  /// Identifiers that no longer name the namespace after renaming: for each
  /// rename, the first component where `From` and `To` differ
  /// (`sample_ops` for sample_ops=cache_dit::attn, `b` for a::b=a::c).
  std::vector<std::string> vanishingNames() const;

private:
  std::vector<NamespaceRename> Renames; ///< Longest `From` first.
};

} // namespace opmig::migrate

#endif
