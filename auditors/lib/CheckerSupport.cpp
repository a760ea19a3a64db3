//===- CheckerSupport.cpp - What the checkers share ------------------------===//

#include "CheckerSupport.h"

#include "opmig/support/Errors.h"

#include "llvm/ADT/STLExtras.h"
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

std::optional<std::string> DomainPattern::domainOf(llvm::StringRef Path, bool IsDirectory) const {
  if ((FoldersOnly && !IsDirectory) || Path.size() <= Prefix.size() + Suffix.size() ||
      !Path.starts_with(Prefix) || !Path.ends_with(Suffix))
    return std::nullopt;
  llvm::StringRef Middle = Path.drop_front(Prefix.size()).drop_back(Suffix.size());
  if (Middle.contains('/'))
    return std::nullopt;
  return Middle.str();
}

DomainPattern splitDomains(llvm::StringRef Glob) {
  DomainPattern P;
  P.FoldersOnly = Glob.ends_with("/");
  Glob = Glob.rtrim('/');
  auto [Prefix, Suffix] = Glob.split('*');
  P.Prefix = Prefix.str();
  P.Suffix = Suffix.str();
  return P;
}

std::vector<std::string> domainsIn(const Repository &Repo, llvm::StringRef Glob) {
  DomainPattern P = splitDomains(Glob);
  std::vector<std::string> Domains;
  for (const std::string &Dir : Repo.directories())
    if (auto D = P.domainOf(Dir, true))
      Domains.push_back(*D);
  for (const std::string &File : Repo.files())
    if (auto D = P.domainOf(File, false))
      Domains.push_back(*D);
  llvm::sort(Domains);
  Domains.erase(std::unique(Domains.begin(), Domains.end()), Domains.end());
  return Domains;
}

} // namespace opmig::audit
