//===- Repository.h - The files an audit looks at ---------------*- C++ -*-===//

#ifndef OPMIG_AUDIT_REPOSITORY_H
#define OPMIG_AUDIT_REPOSITORY_H

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opmig::audit {

/// The audited tree: its files (relative, sorted) and their text, read
/// once. Version-control and build folders (.git, build*, __pycache__,
/// .opmig-staging, node_modules) are skipped; a git work tree lists what
/// `git ls-files --cached --others --exclude-standard` lists.
class Repository {
public:
  static llvm::Expected<Repository> open(const std::string &Root);

  const std::string &root() const { return Root; }
  const std::vector<std::string> &files() const { return Files; }
  /// Directories that contain at least one file, relative, sorted.
  const std::vector<std::string> &directories() const { return Directories; }
  bool exists(const std::string &RelativePath) const;
  /// The file's text; nullopt when it is not in the repository or not text.
  std::optional<std::string> text(const std::string &RelativePath) const;

private:
  std::string Root;
  std::vector<std::string> Files, Directories;
  mutable std::map<std::string, std::optional<std::string>> Texts;
};

} // namespace opmig::audit

#endif
