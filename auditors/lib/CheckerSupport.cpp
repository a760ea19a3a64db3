//===- CheckerSupport.cpp - What the cpp and python checkers share --------===//

#include "CheckerSupport.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace opmig::audit {

Finding unparsableFinding(const std::string &File, unsigned Line, unsigned Column,
                          const std::string &What) {
  Finding F;
  F.Id = UnparsableFileRule;
  F.Level = Severity::Warning;
  F.File = File;
  F.Line = Line;
  F.Column = Column;
  F.Message = What + "; the rules that read this file skipped it";
  F.Fix = "fix the syntax error, or exclude the file from the rule";
  return F;
}

llvm::Expected<std::string> absoluteRoot(const Repository &Repo) {
  llvm::SmallString<256> Root(Repo.root());
  if (std::error_code EC = llvm::sys::fs::make_absolute(Root))
    return inputError("cannot resolve the audited root '", Repo.root(), "': ", EC.message());
  llvm::sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  return std::string(Root);
}

} // namespace opmig::audit
