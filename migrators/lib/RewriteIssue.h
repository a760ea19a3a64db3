//===- RewriteIssue.h - What the rewriter reports ---------------*- C++ -*-===//
//
// The rewriter reports code it cannot port as it should as `opmig::Finding`s
// (Producer `migrate`), located in the upstream file. A blocking one (an
// error) means the port would not compile or would be wrong, so the
// migration is not written; a warning is worth a look.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_REWRITEISSUE_H
#define OPMIG_MIGRATE_REWRITEISSUE_H

#include "opmig/support/Finding.h"

#include <string>

namespace opmig::migrate {

/// Finding ids of the rewriter, one per kind of problem (docs/user-guide.md).
namespace issue_id {
inline constexpr const char *RegistrationUnexpanded = "registration-block-unexpanded";
inline constexpr const char *DefinitionNotFound = "definition-to-leave-out-not-found";
inline constexpr const char *EditConflict = "edit-conflict";
inline constexpr const char *IncludeNotPorted = "include-not-ported";
inline constexpr const char *IncludeThroughMacro = "include-through-macro";
inline constexpr const char *NameLeftAsWritten = "name-left-as-written";
inline constexpr const char *FileNotParsed = "file-not-parsed";
inline constexpr const char *EditsNotApplied = "edits-not-applied";
inline constexpr const char *RenameUnsupported = "rename-unsupported";
inline constexpr const char *ParseErrors = "parse-errors";
} // namespace issue_id

/// `File` is upstream-relative; `Line` 0 when the issue is about the file.
inline Finding rewriteIssue(const char *Id, std::string File, unsigned Line, std::string Message,
                            bool Blocking) {
  Finding F;
  F.Id = Id;
  F.Level = Blocking ? Severity::Error : Severity::Warning;
  F.Message = std::move(Message);
  F.File = std::move(File);
  F.Line = Line;
  F.Producer = "migrate";
  return F;
}

} // namespace opmig::migrate

#endif
