//===- TemplateSyntax.h - Template checks without a context -----*- C++ -*-===//
//
// The profile loader checks every template when it loads a profile, long
// before a context exists, so that an unbalanced section is reported with
// the profile instead of in the middle of a migration.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_TEMPLATESYNTAX_H
#define OPMIG_MIGRATE_LIB_TEMPLATESYNTAX_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig::migrate {

struct TemplateProblem {
  unsigned Line = 1; ///< 1-based line of the template.
  std::string Message;
};

/// The first syntax problem of `Template` (unclosed tag, unsupported tag,
/// bad name, unbalanced section), or nullopt.
std::optional<TemplateProblem> checkTemplateSyntax(llvm::StringRef Template);

} // namespace opmig::migrate

#endif
