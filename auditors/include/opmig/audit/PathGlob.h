//===- PathGlob.h - Globs over repository-relative paths --------*- C++ -*-===//
//
// Rules select files with globs anchored at the audited root. Unlike
// llvm::GlobPattern alone, `*` and `?` stay inside one path segment and `**`
// (a whole segment) crosses folders:
//
//   src/*.py          src/a.py, not src/pkg/a.py
//   src/**/*.py       src/a.py, src/pkg/a.py, src/pkg/sub/a.py
//   csrc/kernels/*/   every folder directly under csrc/kernels (trailing `/`:
//                     folders only)
//
// Within a segment the syntax is llvm::GlobPattern's (`[a-z]`, `{a,b}`, `\`).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_PATHGLOB_H
#define OPMIG_AUDIT_PATHGLOB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace opmig::audit {

class PathGlob {
public:
  /// A plain llvm::StringError (the caller adds file and line) for an empty
  /// glob, an absolute one, or a segment llvm::GlobPattern rejects.
  static llvm::Expected<PathGlob> create(llvm::StringRef Pattern);

  /// Whether `Path` (relative, `/`-separated, no trailing `/`) matches;
  /// `IsDirectory` says what `Path` names, for folder-only globs.
  bool match(llvm::StringRef Path, bool IsDirectory = false) const;
  /// The glob ends in `/`: it matches folders only.
  bool directoryOnly() const { return DirectoryOnly; }
  const std::string &pattern() const { return Pattern; }

private:
  struct Segment {
    /// llvm::GlobPattern keeps a StringRef to its pattern: the text lives
    /// here, shared by copies, so that a PathGlob outlives the string it
    /// was created from.
    std::shared_ptr<const std::string> Text;
    std::optional<llvm::GlobPattern> Glob; ///< Empty for `**`.
  };
  bool matchFrom(size_t SegmentIndex, const std::vector<llvm::StringRef> &Parts,
                 size_t PartIndex) const;

  std::string Pattern;
  std::vector<Segment> Segments;
  bool DirectoryOnly = false;
};

/// Whether `Path` matches any of `Globs`.
bool matchesAny(const std::vector<PathGlob> &Globs, llvm::StringRef Path, bool IsDirectory = false);

} // namespace opmig::audit

#endif
