//===- PathChecker.cpp - Forbidden and required paths ---------------------===//
//
//   match:
//     forbid: ["src/cache_dit/kernels/triton/", "src/cache_dit/kernels/backend.py"]
//     require: ["csrc/kernels/{domain}/binding.cpp"]
//     domains: "csrc/kernels/*/"
//
// Every file or folder matching a `forbid` glob is a finding at that path;
// every `require`d path missing is one, once per domain when it names
// `{domain}`. Captures: `{path}`, `{domain}`. The rule's `exclude` globs
// exempt paths; `files` is not used by path rules.
//
//===----------------------------------------------------------------------===//

#include "Checkers.h"
#include "MatchParams.h"
#include "opmig/audit/PathGlob.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

/// The `domains` glob, split around its one `*`.
struct DomainPattern {
  std::string Prefix, Suffix;
  bool FoldersOnly = false;

  /// The part `*` matched in `Path`, or nullopt.
  std::optional<std::string> domainOf(llvm::StringRef Path, bool IsDirectory) const {
    if ((FoldersOnly && !IsDirectory) || Path.size() <= Prefix.size() + Suffix.size() ||
        !Path.starts_with(Prefix) || !Path.ends_with(Suffix))
      return std::nullopt;
    llvm::StringRef Middle = Path.drop_front(Prefix.size()).drop_back(Suffix.size());
    if (Middle.contains('/'))
      return std::nullopt;
    return Middle.str();
  }
};

DomainPattern splitDomains(llvm::StringRef Glob) {
  DomainPattern P;
  P.FoldersOnly = Glob.ends_with("/");
  Glob = Glob.rtrim('/');
  auto [Prefix, Suffix] = Glob.split('*');
  P.Prefix = Prefix.str();
  P.Suffix = Suffix.str();
  return P;
}

std::vector<PathGlob> compileAll(const std::vector<std::string> &Patterns) {
  std::vector<PathGlob> Globs;
  for (const std::string &Pattern : Patterns)
    if (auto Glob = PathGlob::create(Pattern))
      Globs.push_back(std::move(*Glob));
    else
      llvm::consumeError(Glob.takeError()); // Validated when the rule loaded.
  return Globs;
}

class PathChecker : public Checker {
public:
  const char *kind() const override { return "path"; }

  llvm::Error validate(const Rule &R) const override {
    MatchParams P(R);
    if (llvm::Error E = P.allowOnly({"forbid", "require", "domains"}))
      return E;
    if (!P.has("forbid") && !P.has("require"))
      return P.error("", "a path rule needs 'forbid' or 'require' in match");
    auto Forbid = P.strings("forbid", false);
    if (!Forbid)
      return Forbid.takeError();
    for (const std::string &Pattern : *Forbid)
      if (auto Glob = PathGlob::create(Pattern); !Glob)
        return P.error("forbid", llvm::toString(Glob.takeError()));
    auto Require = P.strings("require", false);
    if (!Require)
      return Require.takeError();
    bool NeedsDomains = false;
    for (const std::string &Path : *Require) {
      if (llvm::StringRef(Path).find_first_of("*?[") != llvm::StringRef::npos)
        return P.error("require", "required path '" + Path + "' must not be a glob");
      NeedsDomains |= llvm::StringRef(Path).contains("{domain}");
    }
    auto Domains = P.string("domains", false);
    if (!Domains)
      return Domains.takeError();
    if (NeedsDomains && Domains->empty())
      return P.error("require", "a required path with {domain} needs 'domains' in match");
    if (!Domains->empty() &&
        (llvm::count(*Domains, '*') != 1 ||
         llvm::StringRef(*Domains).find_first_of("?[{") != llvm::StringRef::npos))
      return P.error("domains", "'domains' must be a glob with exactly one '*' and no other "
                                "wildcard, e.g. csrc/kernels/*/");
    return llvm::Error::success();
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    for (const Rule *R : Rules) {
      std::vector<PathGlob> Exclude = compileAll(R->Exclude);
      checkForbidden(Repo, *R, Exclude, Out);
      checkRequired(Repo, *R, Exclude, Out);
    }
    return llvm::Error::success();
  }

private:
  static void checkForbidden(const Repository &Repo, const Rule &R,
                             const std::vector<PathGlob> &Exclude, std::vector<Finding> &Out) {
    std::vector<PathGlob> Forbid = compileAll(R.Match.value("forbid", std::vector<std::string>()));
    auto Visit = [&](const std::string &Path, bool IsDirectory) {
      if (matchesAny(Forbid, Path, IsDirectory) && !matchesAny(Exclude, Path, IsDirectory))
        Out.push_back(makeFinding(R, Path, 0, 0, {{"path", Path}}));
    };
    for (const std::string &Dir : Repo.directories())
      Visit(Dir, true);
    for (const std::string &File : Repo.files())
      Visit(File, false);
  }

  static void checkRequired(const Repository &Repo, const Rule &R,
                            const std::vector<PathGlob> &Exclude, std::vector<Finding> &Out) {
    std::vector<std::string> Domains;
    if (R.Match.contains("domains")) {
      DomainPattern P = splitDomains(R.Match["domains"].get<std::string>());
      for (const std::string &Dir : Repo.directories())
        if (auto D = P.domainOf(Dir, true))
          Domains.push_back(*D);
      for (const std::string &File : Repo.files())
        if (auto D = P.domainOf(File, false))
          Domains.push_back(*D);
    }
    for (const std::string &Template : R.Match.value("require", std::vector<std::string>())) {
      bool PerDomain = llvm::StringRef(Template).contains("{domain}");
      for (const std::string &Domain : PerDomain ? Domains : std::vector<std::string>{""}) {
        std::map<std::string, std::string> Captures = {{"domain", Domain}};
        std::string Path = llvm::StringRef(fillPlaceholders(Template, Captures)).rtrim('/').str();
        Captures["path"] = Path;
        if (!Repo.exists(Path) && !matchesAny(Exclude, Path))
          Out.push_back(makeFinding(R, Path, 0, 0, Captures));
      }
    }
  }
};

} // namespace

std::unique_ptr<Checker> makePathChecker() { return std::make_unique<PathChecker>(); }

} // namespace opmig::audit
