//===- RequiredNames.cpp - The required-names python check ----------------===//

#include "RequiredNames.h"

#include "CheckParams.h"
#include "CheckerSupport.h"
#include "MatchParams.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <set>

namespace opmig::audit {

namespace {

/// `Domains` renamed through the rule's `domain-map`.
std::vector<std::string> renamed(const Rule &R, std::vector<std::string> Domains) {
  for (const std::string &Entry : listParam(R, "domain-map")) {
    auto [From, To] = llvm::StringRef(Entry).split('=');
    for (std::string &Domain : Domains)
      if (Domain == From)
        Domain = To.str();
  }
  return Domains;
}

/// The domains of `File` for `R`: those of `domains`, or the file's own
/// (`file-domain`), which must then be one of those of `domains` when both
/// are given. None when the file's path does not match `file-domain`.
std::vector<std::string> domainsFor(const Rule &R, const Repository &Repo,
                                    const std::string &File) {
  std::vector<std::string> Domains;
  std::string Glob = stringParam(R, "domains");
  if (!Glob.empty())
    Domains = renamed(R, domainsIn(Repo, Glob));
  std::string Pattern = stringParam(R, "file-domain");
  if (Pattern.empty())
    return Domains;
  llvm::SmallVector<llvm::StringRef, 2> Groups;
  if (!compileRegex(Pattern).match(File, &Groups) || Groups.size() < 2 || Groups[1].empty())
    return {};
  std::vector<std::string> Own = renamed(R, {Groups[1].str()});
  // With `domains` too, the file's domain must be one of the repository's.
  if (!Glob.empty() && !llvm::is_contained(Domains, Own.front()))
    return {};
  return Own;
}

std::set<std::string> definedNames(const PythonRecord &Record) {
  std::set<std::string> Names;
  auto It = Record.Captures.find("defined");
  if (It == Record.Captures.end())
    return Names;
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  llvm::StringRef(It->second).split(Lines, '\n', -1, false);
  for (llvm::StringRef Line : Lines)
    Names.insert(Line.str());
  return Names;
}

} // namespace

std::vector<Finding> missingNames(const Rule &R, const Repository &Repo, const std::string &File,
                                  const PythonRecord &Record) {
  std::set<std::string> Defined = definedNames(Record);
  std::vector<std::string> Domains = domainsFor(R, Repo, File);
  std::vector<Finding> Found;
  // A file whose path `file-domain` does not match is no domain module.
  if (R.Match.contains("file-domain") && Domains.empty())
    return Found;
  auto Require = [&](const std::string &Name, const std::string &Domain) {
    if (!Defined.count(Name))
      Found.push_back(
          makeFinding(R, File, 0, 0, {{"name", Name}, {"domain", Domain}, {"file", File}}));
  };
  for (const std::string &Pattern : listParam(R, "names")) {
    if (!llvm::StringRef(Pattern).contains("{domain}")) {
      Require(Pattern, "");
      continue;
    }
    for (const std::string &Domain : Domains)
      Require(substitute(Pattern, "domain", Domain), Domain);
  }
  return Found;
}

} // namespace opmig::audit
