//===- LeftoverScanner.h - Old namespace names left after rewriting -*- C++ -*-===//
//
// The AST only shows code a parse compiled. After the edits are applied, the
// output is raw-lexed (every `#if` branch, no preprocessing) and each
// identifier that named a renamed namespace and no longer does (e.g.
// `sample_ops`) is checked, outside comments, strings and include names: if
// the AST accounts for it (a spelling kept on purpose, a variable or member
// that merely shares the name) it is fine; otherwise it is reported where it
// was upstream. It does not block when no parse saw its code (a disabled
// `#if` branch, a macro no parse expanded): the migration then compiles as
// the parses did, and the name is for a person to fix if that branch is ever
// used. Anywhere else it blocks.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_LEFTOVERSCANNER_H
#define OPMIG_MIGRATE_LIB_LEFTOVERSCANNER_H

#include "ParseRecord.h"
#include "RewriteContext.h"

#include "clang/Tooling/Core/Replacement.h"

#include <functional>
#include <optional>
#include <set>

namespace opmig::migrate {

struct LeftoverInputs {
  std::vector<std::string> Names; ///< RenameMap::vanishingNames().
  std::set<unsigned> Handled;     ///< Upstream offsets covered by resolved references.
  /// Why no parse saw the upstream offset, or nothing when one did.
  std::function<std::optional<UnseenReason>(unsigned)> Unseen;
};

void reportLeftovers(const PortedFile &File, llvm::StringRef Output,
                     const clang::tooling::Replacements &Applied, const LeftoverInputs &Inputs,
                     std::vector<Finding> &Issues);

} // namespace opmig::migrate

#endif
