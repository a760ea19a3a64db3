//===- TextChecker.cpp - Regexes over the lines of text files -------------===//
//
//   files: ["docs/**/*.md", "src/**/*.py"]
//   match:
//     regex: "/(home|Users|abs/path)/[^ )`'\"]+"
//     ignore-regex: "example\\.invalid"
//
// Every match on a line is a finding at its line and column, unless the
// line matches `ignore-regex`. Captures: `{match}`, and `{1}`... for groups,
// and `{context}`: the nearest heading above, the lead-in line of the list or
// paragraph, and the line itself, joined by ` | `. Exemptions read it: a doc
// that quotes a forbidden path under "Do not ..." or "Bad:" forbids it.
// `{origin}`: the `url:` or `source:` of a front matter block opening the
// file (`---` lines), empty without one: a page copied from a published
// manual says where it came from, and its example paths are the publisher's.
//
// `path-reference: N` turns the rule around: group N of a match is a
// repository-relative path, and the match is a finding only when that path
// names no file or folder of the audited tree. A pattern is no reference
// (`<domain>`, `{op}`, `*`, `[...]`, `...`); a pytest node id, a line or an
// anchor after the path (`::test_x`, `:12`, `#L3`) is dropped first.
//
//===----------------------------------------------------------------------===//

#include "CheckParams.h"
#include "Checkers.h"
#include "MatchParams.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

/// The heading and lead-in line above the line being read, for `{context}`.
class LineContext {
public:
  void advance(llvm::StringRef Line) {
    llvm::StringRef Trimmed = Line.trim();
    if (Trimmed.empty())
      return;
    if (Trimmed.starts_with("#")) {
      Heading = Trimmed.str();
      LeadIn.clear();
    } else if (!isListItem(Trimmed)) {
      LeadIn = Trimmed.str();
    }
  }

  std::string of(llvm::StringRef Line) const {
    return Heading + " | " + LeadIn + " | " + Line.trim().str();
  }

private:
  static bool isListItem(llvm::StringRef Trimmed) {
    if (Trimmed.starts_with("- ") || Trimmed.starts_with("* ") || Trimmed.starts_with("+ "))
      return true;
    size_t Digits = Trimmed.find_first_not_of("0123456789");
    return Digits != 0 && Digits != llvm::StringRef::npos &&
           Trimmed.substr(Digits).starts_with(". ");
  }

  std::string Heading, LeadIn;
};

/// The path a `path-reference` group names, or "" for a pattern.
std::string referencedPath(llvm::StringRef Text) {
  if (Text.find_first_of("<>{}*?[]") != llvm::StringRef::npos || Text.contains("...") ||
      Text.contains("\u2026"))
    return "";
  Text = Text.split("::").first.split('#').first;
  if (size_t Colon = Text.find(':');
      Colon != llvm::StringRef::npos && Colon + 1 < Text.size() && llvm::isDigit(Text[Colon + 1]))
    Text = Text.take_front(Colon);
  return Text.rtrim("/.,;").str();
}

/// The `url:` or `source:` value of the front matter that opens `Text`
/// (a `---` first line, the block closed by another `---`), else "".
std::string frontMatterOrigin(llvm::StringRef Text) {
  auto [First, Rest] = Text.split('\n');
  if (First.trim() != "---")
    return "";
  // A front matter is a few lines; past that, `---` is a rule, not its end.
  for (int Lines = 0; Lines < 32 && !Rest.empty(); ++Lines) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    llvm::StringRef Trimmed = Line.trim();
    if (Trimmed == "---")
      return "";
    for (llvm::StringRef Key : {"url:", "source:"})
      if (Trimmed.consume_front(Key))
        return Trimmed.trim().trim("\"'").str();
  }
  return "";
}

/// `path-reference`'s group (a number, or a YAML scalar of digits); 0 when
/// absent or not a positive number.
unsigned pathGroup(const Rule &R) { return integerParam(R, "path-reference", 0); }

/// path-reference: whether `Group` is a reference to a path the tree does
/// not hold; `{path}` is the path as checked.
bool isMissing(const Repository &Repo, llvm::StringRef Group,
               std::map<std::string, std::string> &Captures) {
  std::string Path = referencedPath(Group);
  Captures["path"] = Path;
  return !Path.empty() && !Repo.exists(Path);
}

class TextChecker : public Checker {
public:
  const char *kind() const override { return "text"; }

  llvm::Error validate(const Rule &R) const override {
    MatchParams P(R);
    if (llvm::Error E = P.allowOnly({"regex", "ignore-regex", "path-reference"}))
      return E;
    unsigned Group = pathGroup(R);
    if (P.has("path-reference") && Group == 0)
      return P.error("path-reference",
                     "'path-reference' must be the number of the regex group holding the path "
                     "(1 or more)");
    if (llvm::Error E = P.regex("regex", true, Group))
      return E;
    return P.regex("ignore-regex", false);
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    for (const Rule *R : Rules) {
      llvm::Regex Pattern = compileRegex(R->Match["regex"].get<std::string>());
      std::optional<llvm::Regex> Ignore;
      if (R->Match.contains("ignore-regex"))
        Ignore = compileRegex(R->Match["ignore-regex"].get<std::string>());
      for (const std::string &File : Repo.files())
        if (appliesTo(*R, File))
          if (std::optional<std::string> Text = Repo.text(File))
            checkText(*R, Repo, Pattern, Ignore ? &*Ignore : nullptr, File, *Text, Out);
    }
    return llvm::Error::success();
  }

private:
  static void checkText(const Rule &R, const Repository &Repo, const llvm::Regex &Pattern,
                        const llvm::Regex *Ignore, const std::string &File, llvm::StringRef Text,
                        std::vector<Finding> &Out) {
    unsigned PathGroup =
        R.Match.contains("path-reference") ? R.Match["path-reference"].get<unsigned>() : 0;
    bool Anchored = llvm::StringRef(R.Match["regex"].get<std::string>()).starts_with("^");
    unsigned LineNo = 0;
    LineContext Context;
    std::string Origin = frontMatterOrigin(Text);
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      Text = Rest;
      Line.consume_back("\r");
      ++LineNo;
      // The line's own context is what came before it; it joins the
      // context of the lines after it once checked.
      llvm::scope_exit Advance([&, Line = Line] { Context.advance(Line); });
      if (Ignore && Ignore->match(Line))
        continue;
      llvm::SmallVector<llvm::StringRef, 4> Groups;
      for (size_t From = 0; From <= Line.size() && Pattern.match(Line.substr(From), &Groups);) {
        std::map<std::string, std::string> Captures = {
            {"match", Groups[0].str()}, {"context", Context.of(Line)}, {"origin", Origin}};
        for (size_t G = 1; G < Groups.size(); ++G)
          Captures[std::to_string(G)] = Groups[G].str();
        size_t Column = Groups[0].data() - Line.data();
        if (PathGroup == 0 || isMissing(Repo, Groups[PathGroup], Captures))
          Out.push_back(makeFinding(R, File, LineNo, Column + 1, Captures));
        // An anchored pattern matches once per line (llvm::Regex would take
        // the rest of the line for a new start); an empty match must still
        // move on, or the loop would not end.
        if (Anchored)
          break;
        From = Column + std::max<size_t>(Groups[0].size(), 1);
      }
    }
  }
};

} // namespace

std::unique_ptr<Checker> makeTextChecker() { return std::make_unique<TextChecker>(); }

} // namespace opmig::audit
