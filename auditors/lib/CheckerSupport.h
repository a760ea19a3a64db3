//===- CheckerSupport.h - What the checkers share ----------------*- C++ -*-===//

#ifndef OPMIG_AUDIT_CHECKERSUPPORT_H
#define OPMIG_AUDIT_CHECKERSUPPORT_H

#include "opmig/audit/Repository.h"
#include "opmig/support/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace opmig::audit {

/// The rule id of a file a checker cannot parse (a warning).
inline constexpr const char *UnparsableFileRule = "opmig-unparsable-file";

/// The `opmig-unparsable-file` warning for `File`; `What` says which parser
/// failed and why (`cannot parse as Python: invalid syntax`).
Finding unparsableFinding(const std::string &File, unsigned Line, unsigned Column,
                          const std::string &What);

/// The repository root as an absolute path, for tools that read files
/// themselves (Clang, python3).
llvm::Expected<std::string> absoluteRoot(const Repository &Repo);

/// A `domains` glob (`csrc/kernels/*/`), split around its one `*`: the
/// path and python rules that require something per domain.
struct DomainPattern {
  std::string Prefix, Suffix;
  bool FoldersOnly = false;

  /// The part `*` matched in `Path`, or nullopt.
  std::optional<std::string> domainOf(llvm::StringRef Path, bool IsDirectory) const;
};

DomainPattern splitDomains(llvm::StringRef Glob);

/// The domains `Glob` gives in `Repo` (folders and files), sorted, each once.
std::vector<std::string> domainsIn(const Repository &Repo, llvm::StringRef Glob);

} // namespace opmig::audit

#endif
