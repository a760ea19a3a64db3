//===- RulesDir.cpp - Where the data opmig ships lives --------------------===//

#include "RulesDir.h"

#include "opmig/support/Errors.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

namespace opmig {

llvm::Error RulesDir::requireAuditRules(llvm::StringRef Alternative) const {
  if (llvm::sys::fs::is_directory(auditRules()))
    return llvm::Error::success();
  std::string Or = Alternative.empty() ? "" : " or " + Alternative.str();
  return inputError("built-in rules folder '", auditRules(),
                    "' does not exist; set OPMIG_RULES_DIR", Or);
}

RulesDir resolveRulesDir(const std::string &CompiledIn) {
  std::optional<std::string> FromEnv = llvm::sys::Process::GetEnv("OPMIG_RULES_DIR");
  return RulesDir{FromEnv && !FromEnv->empty() ? *FromEnv : CompiledIn};
}

} // namespace opmig
