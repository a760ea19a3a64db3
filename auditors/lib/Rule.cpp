//===- Rule.cpp - Which files a rule applies to ---------------------------===//

#include "opmig/audit/Rule.h"

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/Support/Regex.h"

#include <unordered_map>

namespace opmig::audit {

namespace {

/// Checkers ask once per (rule, file); compiling the same few globs that
/// often would dominate an audit. The loader has validated every glob, so a
/// failure here only means "matches nothing". Per thread, so that checkers
/// running in parallel need no lock.
const PathGlob *compiledGlob(const std::string &Pattern) {
  thread_local std::unordered_map<std::string, std::optional<PathGlob>> Cache;
  auto [It, Inserted] = Cache.try_emplace(Pattern);
  if (Inserted) {
    llvm::Expected<PathGlob> Glob = PathGlob::create(Pattern);
    if (Glob)
      It->second = std::move(*Glob);
    else
      llvm::consumeError(Glob.takeError());
  }
  return It->second ? &*It->second : nullptr;
}

bool matchesAnyPattern(const std::vector<std::string> &Patterns, const std::string &Path) {
  for (const std::string &Pattern : Patterns)
    if (const PathGlob *Glob = compiledGlob(Pattern); Glob && Glob->match(Path))
      return true;
  return false;
}

bool capturesMatch(const Exemption &E, const std::map<std::string, std::string> &Captures) {
  thread_local std::unordered_map<std::string, llvm::Regex> Regexes;
  for (const auto &[Name, Pattern] : E.Captures) {
    auto It = Regexes.find(Pattern);
    if (It == Regexes.end())
      It = Regexes.emplace(Pattern, compileRegex(Pattern)).first;
    auto Value = Captures.find(Name);
    if (Value == Captures.end() || !It->second.match(Value->second))
      return false;
  }
  return true;
}

} // namespace

const Exemption *exemptionFor(const Rule &R, const std::string &File,
                              const std::map<std::string, std::string> &Captures) {
  for (const Exemption &E : R.Exemptions)
    if ((E.Paths.empty() || matchesAnyPattern(E.Paths, File)) &&
        !matchesAnyPattern(E.Outside, File) && capturesMatch(E, Captures))
      return &E;
  return nullptr;
}

bool appliesTo(const Rule &R, const std::string &RelativePath) {
  return matchesAnyPattern(R.Files, RelativePath) && !matchesAnyPattern(R.Exclude, RelativePath);
}

} // namespace opmig::audit
