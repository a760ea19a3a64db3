//===- RulesDir.h - Where the data opmig ships lives ------------*- C++ -*-===//
//
// Profiles, audit rules and validation layers are data under one folder:
// `$OPMIG_RULES_DIR` when it is set (an installed opmig, a test's own
// rules), else the source tree's `rules/`. main() resolves it once and hands
// it to the commands; the libraries get plain paths and never read the
// environment.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_TOOLS_RULESDIR_H
#define OPMIG_TOOLS_RULESDIR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace opmig {

struct RulesDir {
  std::string Root;

  std::string profiles() const { return Root + "/profiles"; }
  std::string auditRules() const { return Root + "/audit"; }
  std::string layersFile() const { return Root + "/review/validation-layers.yaml"; }

  /// InputError when auditRules() is not a folder, saying how to name
  /// another: `OPMIG_RULES_DIR`, or `Alternative` when not empty (e.g.
  /// "pass --rules").
  llvm::Error requireAuditRules(llvm::StringRef Alternative) const;
};

/// `$OPMIG_RULES_DIR` when set and not empty, else `CompiledIn`.
RulesDir resolveRulesDir(const std::string &CompiledIn);

} // namespace opmig

#endif
