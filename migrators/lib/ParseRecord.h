//===- ParseRecord.h - What one parse contributes to a rewrite --*- C++ -*-===//
//
// Each parse (one TU, one side) reports, in upstream file offsets, the edits
// it computed and what it saw of every ported file. The results of all
// parses are merged afterwards: edits are unioned, and a file's code counts
// as seen when any parse that included it saw it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_PARSERECORD_H
#define OPMIG_MIGRATE_LIB_PARSERECORD_H

#include "RewriteIssue.h"
#include "opmig/migrate/SourceRewriter.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace opmig::migrate {

/// Where edits at the same offset go relative to each other: a wrap closes
/// before the next one opens, and both come before code edits there.
enum class EditOrder { WrapClose, WrapOpen, Code };

struct FileEdit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  EditOrder Order = EditOrder::Code;
  std::string Why; ///< For conflict messages, e.g. `namespace rename`.

  unsigned end() const { return Offset + Length; }
};

/// Why a parse did not see a range of a file it included.
enum class UnseenReason { SkippedBranch, UnexpandedMacro };

struct UnseenRange {
  unsigned Begin = 0, End = 0;
  UnseenReason Reason = UnseenReason::SkippedBranch;
};

/// A top-level declaration of a ported file, for the global wrap.
struct TopLevelItem {
  enum Kind { Wrap, Barrier } Role = Barrier;
  unsigned Begin = 0, End = 0; ///< End includes a trailing `;`.
};

/// A definition or registration block found in a ported file, with the
/// names it declares (upstream qualified names).
struct FoundDefinition {
  unsigned Begin = 0, End = 0; ///< Template header and trailing `;` included.
  unsigned Line = 0;           ///< Of the declared name, as the analyzer reports it.
  std::vector<std::string> Names;
  bool Registration = false;
};

struct FileObservation {
  std::vector<UnseenRange> Unseen;
  /// Offsets of namespace-name tokens that a resolved reference covered,
  /// rewritten or deliberately kept.
  std::set<unsigned> Handled;
  std::set<unsigned> SeenIncludes; ///< Offsets of the `#` of directives the parse ran.
  std::vector<TopLevelItem> Items;
  std::vector<FoundDefinition> Definitions;
};

/// An issue a parse found; one anchored in a ported file's code is dropped
/// when that code is left out of the copy.
struct ParseIssue {
  Finding Issue;
  std::optional<unsigned> Offset; ///< Upstream offset in `Issue.Loc.File`.
};

struct ParseRecord {
  std::string TU;   ///< Upstream relative path of the main file (or the probed header).
  std::string Side; ///< `host` or `device`.
  std::vector<std::string> Flags; ///< Those of the TU (for a probe, the TU it borrowed them from).
  bool Completed = false;
  bool HadErrors = false; ///< Clang reported errors (also an issue when completed).
  std::map<std::string, FileObservation> Files; ///< By upstream relative path.
  std::map<std::string, std::vector<FileEdit>> Edits;
  std::vector<ParseIssue> Issues;
  /// Every file the parse read, absolute (the preamble's headers included,
  /// a probe's in-memory main file not): what its cache entry depends on.
  /// Not part of the cached record.
  std::vector<std::string> InputFiles;

  void addIssue(const char *Id, std::string File, unsigned Line, std::string Message, bool Blocking,
                std::optional<unsigned> Offset = std::nullopt) {
    Issues.push_back(
        {rewriteIssue(Id, std::move(File), Line, std::move(Message), Blocking), Offset});
  }
};

} // namespace opmig::migrate

#endif
