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
// exempt paths (and domain folders); `files` is not used by path rules.
// `domains` may list several globs (a layout and the one it moved to).
//
//     mention-in: docs/design/kernel_selection.md
//     section: "^#+ Quick Reference"   # optional: that heading's section only
//     lines: "^[|]"                    # optional: only lines matching this
//     mention: "{domain}/"             # optional: a regex; default: loose name
//     ignore-words: [fused]            # optional: words of a domain the loose
//                                      # match leaves out (fused_rms_norm: RMSNorm)
//
// `mention-in` requires each domain to be mentioned in a document (an
// existing one: whether it exists is another rule's business). Without
// `mention`, a line mentions `rms_norm` when, lower-cased with everything
// but letters and digits dropped, it holds `rmsnorm` ("RMSNorm"), or the
// initials of a name of several words as a word ("DSA" for
// deepseek_sparse_attention). A missing mention is a finding at the
// section's heading (line 0 without one). Captures also `{section}`.
// `mention-in` may be a glob (`tests/ops/**/*.py`): a mention in any of the
// files it matches will do, and a missing one is a finding at the domain's
// folder.
//
//     filled-columns: "[Ss]election|[Cc]onfig"  # optional: a header regex
//
// With `filled-columns`, a mention must also say something under those
// columns: each domain mentioned by table rows of the scope, none of which
// fills a cell (not empty, not a dash) under a header the regex matches, is
// a finding at its first row. A domain with no row is not judged here (the
// plain `mention-in` rule's business). Captures also `{columns}`.
//
//===----------------------------------------------------------------------===//

#include "CheckerSupport.h"
#include "Checkers.h"
#include "MarkdownTable.h"
#include "MatchParams.h"
#include "opmig/audit/PathGlob.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <functional>
#include <memory>

namespace opmig::audit {

namespace {

std::vector<PathGlob> compileAll(const std::vector<std::string> &Patterns) {
  std::vector<PathGlob> Globs;
  for (const std::string &Pattern : Patterns)
    if (auto Glob = PathGlob::create(Pattern))
      Globs.push_back(std::move(*Glob));
    else
      llvm::consumeError(Glob.takeError()); // Validated when the rule loaded.
  return Globs;
}

std::vector<std::string> listOf(const Rule &R, const char *Key) {
  return R.Match.value(Key, std::vector<std::string>());
}

/// `domains` as a list: one glob or several.
std::vector<std::string> domainGlobs(const Rule &R) {
  if (!R.Match.contains("domains"))
    return {};
  const nlohmann::json &V = R.Match["domains"];
  if (V.is_string())
    return {V.get<std::string>()};
  return V.get<std::vector<std::string>>();
}

/// Lower-case letters and digits only: `Cross-entropy` and `cross_entropy`
/// read the same.
std::string squash(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (llvm::isAlnum(C))
      Out += llvm::toLower(C);
  return Out;
}

/// Whether `Line` names `Domain` loosely (see the top of the file).
bool mentionsLoosely(llvm::StringRef Line, llvm::StringRef Domain,
                     const std::vector<std::string> &IgnoreWords) {
  llvm::SmallVector<llvm::StringRef, 4> All, Words;
  Domain.split(All, '_', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Word : All)
    if (!llvm::is_contained(IgnoreWords, Word.lower()))
      Words.push_back(Word);
  if (Words.empty())
    Words = All;
  if (squash(Line).find(squash(llvm::join(Words, "_"))) != std::string::npos)
    return true;
  if (Words.size() < 2)
    return false;
  std::string Initials;
  for (llvm::StringRef Word : Words)
    Initials += llvm::toLower(Word.front());
  llvm::Regex Word("(^|[^a-z0-9])" + Initials + "([^a-z0-9]|$)");
  return Word.match(Line.lower());
}

/// The lines of a document a mention may be on: all of them, or one
/// heading's section (to the next heading of its level or above), filtered
/// by a regex.
struct MentionScope {
  std::vector<llvm::StringRef> Lines;
  unsigned HeadingLine = 0; ///< 0: no section asked for, or not found.
  bool Found = true;
};

unsigned headingLevel(llvm::StringRef Line) {
  size_t Hashes = Line.find_first_not_of('#');
  return Hashes != llvm::StringRef::npos && Hashes > 0 && Line.substr(Hashes).starts_with(" ")
             ? Hashes
             : 0;
}

MentionScope scopeOf(const Rule &R, llvm::StringRef Text) {
  MentionScope Scope;
  std::optional<llvm::Regex> Section, Lines;
  if (R.Match.contains("section"))
    Section = compileRegex(R.Match["section"].get<std::string>());
  if (R.Match.contains("lines"))
    Lines = compileRegex(R.Match["lines"].get<std::string>());
  Scope.Found = !Section;
  unsigned LineNo = 0, Level = 0;
  bool Inside = !Section;
  for (llvm::StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    unsigned ThisLevel = headingLevel(Line);
    if (Section && ThisLevel && Inside && ThisLevel <= Level)
      break;
    if (Section && !Inside && ThisLevel && Section->match(Line)) {
      Inside = Scope.Found = true;
      Level = ThisLevel;
      Scope.HeadingLine = LineNo;
      continue;
    }
    if (Inside && (!Lines || Lines->match(Line)))
      Scope.Lines.push_back(Line);
  }
  return Scope;
}

class PathChecker : public Checker {
public:
  const char *kind() const override { return "path"; }

  llvm::Error validate(const Rule &R) const override {
    MatchParams P(R);
    if (llvm::Error E = P.allowOnly({"forbid", "require", "domains", "mention-in", "section",
                                     "lines", "mention", "ignore-words", "filled-columns"}))
      return E;
    if (!P.has("forbid") && !P.has("require") && !P.has("mention-in"))
      return P.error("", "a path rule needs 'forbid', 'require' or 'mention-in' in match");
    if (llvm::Error E = validateMentions(P))
      return E;
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
    NeedsDomains |= P.has("mention-in");
    std::vector<std::string> Domains;
    if (P.has("domains") && R.Match["domains"].is_array()) {
      auto List = P.strings("domains", true);
      if (!List)
        return List.takeError();
      Domains = *List;
    } else if (auto One = P.string("domains", false); !One) {
      return One.takeError();
    } else if (!One->empty()) {
      Domains.push_back(*One);
    }
    if (NeedsDomains && Domains.empty())
      return P.error("", "a required path with {domain}, or 'mention-in', needs 'domains'");
    for (const std::string &Glob : Domains)
      if (!Glob.empty() && (llvm::count(Glob, '*') != 1 ||
                            llvm::StringRef(Glob).find_first_of("?[{") != llvm::StringRef::npos))
        return P.error("domains", "each 'domains' glob must have exactly one '*' and no other "
                                  "wildcard, e.g. csrc/kernels/*/");
    return llvm::Error::success();
  }

  static llvm::Error validateMentions(const MatchParams &P) {
    if (!P.has("mention-in") && (P.has("section") || P.has("lines") || P.has("mention") ||
                                 P.has("ignore-words") || P.has("filled-columns")))
      return P.error(
          "",
          "'section', 'lines', 'mention', 'ignore-words' and 'filled-columns' need 'mention-in'");
    if (auto Words = P.strings("ignore-words", false); !Words)
      return Words.takeError();
    if (auto Doc = P.string("mention-in", false); !Doc)
      return Doc.takeError();
    else if (llvm::StringRef(*Doc).find_first_of("*?[") != llvm::StringRef::npos) {
      if (auto Glob = PathGlob::create(*Doc); !Glob)
        return P.error("mention-in", llvm::toString(Glob.takeError()));
      if (P.has("filled-columns"))
        return P.error("filled-columns", "'filled-columns' needs 'mention-in' to name one file");
    }
    for (const char *Key : {"section", "lines", "mention", "filled-columns"})
      if (llvm::Error E = P.regex(Key, false))
        return E;
    return llvm::Error::success();
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    for (const Rule *R : Rules) {
      std::vector<PathGlob> Exclude = compileAll(R->Exclude);
      checkForbidden(Repo, *R, Exclude, Out);
      checkRequired(Repo, *R, Exclude, Out);
      checkMentions(Repo, *R, Exclude, Out);
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

  /// The domains of `R`, each once, leaving out folders `exclude` names.
  static std::vector<std::string> domainsOf(const Repository &Repo, const Rule &R,
                                            const std::vector<PathGlob> &Exclude) {
    std::vector<std::string> Domains;
    for (const std::string &Glob : domainGlobs(R)) {
      DomainPattern P = splitDomains(Glob);
      for (const std::string &Dir : Repo.directories())
        if (auto D = P.domainOf(Dir, true); D && !matchesAny(Exclude, Dir, true))
          Domains.push_back(*D);
      for (const std::string &File : Repo.files())
        if (auto D = P.domainOf(File, false); D && !matchesAny(Exclude, File))
          Domains.push_back(*D);
    }
    llvm::sort(Domains);
    Domains.erase(std::unique(Domains.begin(), Domains.end()), Domains.end());
    return Domains;
  }

  /// `mention-in` a glob: the files it matches, read as one document whose
  /// mention may be in any of them; the finding is on the domain's folder.
  static void checkMentionsInFiles(const Repository &Repo, const Rule &R,
                                   const std::vector<PathGlob> &Exclude, const PathGlob &Glob,
                                   std::vector<Finding> &Out) {
    std::vector<std::string> Texts;
    for (const std::string &File : Repo.files())
      if (Glob.match(File))
        if (std::optional<std::string> Text = Repo.text(File))
          Texts.push_back(std::move(*Text));
    std::vector<MentionScope> Scopes;
    for (const std::string &Text : Texts)
      Scopes.push_back(scopeOf(R, Text));
    std::string Pattern = R.Match["mention-in"].get<std::string>();
    for (const std::string &Domain : domainsOf(Repo, R, Exclude)) {
      auto Mentions = mentionTest(R, Domain);
      if (llvm::any_of(Scopes, [&](const MentionScope &Scope) {
            return Scope.Found && llvm::any_of(Scope.Lines, Mentions);
          }))
        continue;
      Out.push_back(makeFinding(R, domainFolder(Repo, R, Domain), 0, 0,
                                {{"domain", Domain}, {"path", Pattern}}));
    }
  }

  /// The folder (or file) of `Domain`: the first `domains` glob filled in
  /// with it that exists.
  static std::string domainFolder(const Repository &Repo, const Rule &R,
                                  const std::string &Domain) {
    for (const std::string &Glob : domainGlobs(R)) {
      DomainPattern P = splitDomains(Glob);
      std::string Path = P.Prefix + Domain + P.Suffix;
      if (Repo.exists(Path))
        return Path;
    }
    return Domain;
  }

  /// Whether a line mentions `Domain`: `mention` filled in, or loosely.
  static std::function<bool(llvm::StringRef)> mentionTest(const Rule &R,
                                                          const std::string &Domain) {
    if (!R.Match.contains("mention")) {
      std::vector<std::string> Ignore = listOf(R, "ignore-words");
      return
          [Domain, Ignore](llvm::StringRef Line) { return mentionsLoosely(Line, Domain, Ignore); };
    }
    std::string Pattern = R.Match["mention"].get<std::string>();
    auto Compiled = std::make_shared<llvm::Regex>(
        compileRegex(fillPlaceholders(Pattern, {{"domain", llvm::Regex::escape(Domain)}})));
    return [Compiled](llvm::StringRef Line) { return Compiled->match(Line); };
  }

  static void checkMentions(const Repository &Repo, const Rule &R,
                            const std::vector<PathGlob> &Exclude, std::vector<Finding> &Out) {
    if (!R.Match.contains("mention-in"))
      return;
    std::string Doc = R.Match["mention-in"].get<std::string>();
    if (llvm::StringRef(Doc).find_first_of("*?[") != llvm::StringRef::npos) {
      if (auto Glob = PathGlob::create(Doc))
        checkMentionsInFiles(Repo, R, Exclude, *Glob, Out);
      else
        llvm::consumeError(Glob.takeError()); // Validated when the rule loaded.
      return;
    }
    std::optional<std::string> Text = Repo.text(Doc);
    if (!Text)
      return;
    MentionScope Scope = scopeOf(R, *Text);
    std::string Section = R.Match.value("section", std::string());
    for (const std::string &Domain : domainsOf(Repo, R, Exclude)) {
      auto Mentions = mentionTest(R, Domain);
      if (R.Match.contains("filled-columns")) {
        checkFilled(R, Doc, *Text, Scope, Domain, Mentions, Out);
        continue;
      }
      if (Scope.Found && llvm::any_of(Scope.Lines, Mentions))
        continue;
      Out.push_back(makeFinding(R, Doc, Scope.HeadingLine, Scope.HeadingLine ? 1 : 0,
                                {{"domain", Domain}, {"path", Doc}, {"section", Section}}));
    }
  }

  /// `filled-columns`: the table rows of the scope mentioning `Domain`
  /// must fill a cell under a wanted header (the header is the row before
  /// each separator row).
  template <typename MentionFn>
  static void checkFilled(const Rule &R, const std::string &Doc, llvm::StringRef Text,
                          const MentionScope &Scope, const std::string &Domain, MentionFn Mentions,
                          std::vector<Finding> &Out) {
    llvm::Regex Wanted = compileRegex(R.Match["filled-columns"].get<std::string>());
    std::vector<std::string> Header;
    std::optional<llvm::StringRef> FirstRow;
    std::string Columns;
    for (size_t I = 0; I < Scope.Lines.size(); ++I) {
      llvm::StringRef Line = Scope.Lines[I];
      if (isSeparatorRow(Line)) {
        Header = I ? tableCells(Scope.Lines[I - 1]) : std::vector<std::string>();
        continue;
      }
      bool IsHeader = I + 1 < Scope.Lines.size() && isSeparatorRow(Scope.Lines[I + 1]);
      if (IsHeader || tableCells(Line).empty() || !Mentions(Line))
        continue;
      std::vector<std::string> Cells = tableCells(Line);
      Columns.clear();
      for (size_t Column : matchingColumns(Header, Wanted)) {
        Columns += (Columns.empty() ? "" : ", ") + Header[Column];
        if (Column < Cells.size() && isFilledCell(Cells[Column]))
          return;
      }
      FirstRow = FirstRow.value_or(Line);
    }
    if (!FirstRow)
      return;
    unsigned LineNo = 1 + llvm::count(Text.take_front(FirstRow->data() - Text.data()), '\n');
    Out.push_back(makeFinding(R, Doc, LineNo, 1,
                              {{"domain", Domain},
                               {"path", Doc},
                               {"section", R.Match.value("section", std::string())},
                               {"columns", Columns}}));
  }

  static void checkRequired(const Repository &Repo, const Rule &R,
                            const std::vector<PathGlob> &Exclude, std::vector<Finding> &Out) {
    std::vector<std::string> Domains = domainsOf(Repo, R, Exclude);
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
