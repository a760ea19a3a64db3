//===- RewriteContext.h - What every parse of a rewrite shares --*- C++ -*-===//
//
// The read-only state of one `rewriteSources` call: the request, the ported
// files with their upstream text and raw-lexed layout, the rename map, and
// how a path found by a parse relates to the port (ported, in the tree but
// not ported, or external). Parses run in parallel and only read it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_REWRITECONTEXT_H
#define OPMIG_MIGRATE_LIB_REWRITECONTEXT_H

#include "RenameMap.h"
#include "SourceLayout.h"
#include "opmig/migrate/SourceRewriter.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace opmig::migrate {

struct PortedFile {
  std::string Upstream; ///< Relative to the source root.
  std::string Target;   ///< Relative to the target root.
  std::string RealPath; ///< Absolute, symlinks resolved.
  SourceLayout Layout;  ///< Holds the upstream text.
};

enum class PathClass {
  Ported,        ///< In FileMap: rewritten.
  TreeNotPorted, ///< In the upstream tree but left behind.
  External,      ///< Outside the tree, or in a submodule.
};

class RewriteContext {
public:
  /// Reads every ported file; fails with an InputError naming a file that
  /// cannot be read.
  static llvm::Expected<std::unique_ptr<RewriteContext>> create(const RewriteRequest &Request);

  const RewriteRequest &request() const { return Request; }
  const RenameMap &renames() const { return Renames; }
  const std::string &wrapNamespace() const { return Request.WrapGlobalInto; }
  const std::string &sourceRoot() const { return Root; }
  const std::vector<PortedFile> &files() const { return Files; }

  const PortedFile *byRealPath(llvm::StringRef RealPath) const;
  PathClass classify(llvm::StringRef RealPath) const;
  /// `RealPath` relative to the source root (unchanged when outside it).
  std::string relative(llvm::StringRef RealPath) const;

private:
  explicit RewriteContext(const RewriteRequest &Request);

  const RewriteRequest &Request;
  RenameMap Renames;
  std::string Root;
  std::vector<std::string> ExternalDirs; ///< Absolute.
  std::vector<PortedFile> Files;         ///< In FileMap order.
  std::map<std::string, size_t> ByReal;
};

/// Absolute, symlink-free form of `Path` (lexically normalized when it does
/// not exist).
std::string realPathOf(llvm::StringRef Path);

} // namespace opmig::migrate

#endif
