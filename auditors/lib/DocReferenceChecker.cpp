//===- DocReferenceChecker.cpp - Numbered cross-references that drifted ---===//
//
//   files: ["docs/**/*.md"]
//   match:
//     cites: "rule #([0-9]+)"
//     source: "docs/conventions.md"
//     item: "^([0-9]+)\\. (.*)$"
//     topics: [npu, guard, namespace, fake]
//
// A doc saying "NPU imports are guarded (rule #19)" while item 19 of the
// source is about fake names has drifted: the citation's sentence names a
// topic, the cited item names none of the sentence's topics. A citation of
// a number the source lacks, or of a source that does not exist, is a
// finding too. Captures: `{problem}` (a ready sentence), `{citation}`,
// `{number}`, `{topics}`, `{item}`, `{source}`.
//
//===----------------------------------------------------------------------===//

#include "Checkers.h"
#include "MatchParams.h"
#include "opmig/audit/RegexSyntax.h"

#include "llvm/ADT/StringExtras.h"

namespace opmig::audit {

namespace {

/// Items longer than this are shortened in messages.
constexpr size_t ItemPreviewLength = 60;

/// Whether `Word` occurs in `Text` (lower-case both) as a word of its own,
/// or followed by a plural `s`.
bool mentions(llvm::StringRef Text, llvm::StringRef Word) {
  for (size_t At = Text.find(Word); At != llvm::StringRef::npos; At = Text.find(Word, At + 1)) {
    size_t End = At + Word.size();
    if (End < Text.size() && Text[End] == 's')
      ++End;
    bool StartsWord = At == 0 || !llvm::isAlnum(Text[At - 1]);
    bool EndsWord = End == Text.size() || !llvm::isAlnum(Text[End]);
    if (StartsWord && EndsWord)
      return true;
  }
  return false;
}

std::vector<std::string> topicsIn(llvm::StringRef Text, const std::vector<std::string> &Topics) {
  std::string Lower = Text.lower();
  std::vector<std::string> Found;
  for (const std::string &Topic : Topics)
    if (mentions(Lower, llvm::StringRef(Topic).lower()))
      Found.push_back(Topic);
  return Found;
}

/// Where a line starts a new sentence regardless of punctuation: a blank
/// line, a list item or a heading.
bool startsBlock(llvm::StringRef Line) {
  llvm::StringRef T = Line.ltrim();
  if (T.empty() || T.starts_with("#") || T.starts_with("- ") || T.starts_with("* ") ||
      T.starts_with("+ "))
    return true;
  size_t Digits = 0;
  while (Digits < T.size() && llvm::isDigit(T[Digits]))
    ++Digits;
  return Digits > 0 && T.substr(Digits).starts_with(". ");
}

/// The sentence around [Begin, End) of `Text`.
llvm::StringRef sentenceAround(llvm::StringRef Text, size_t Begin, size_t End) {
  auto IsStop = [&](size_t I) {
    return (Text[I] == '.' || Text[I] == '!' || Text[I] == '?') &&
           (I + 1 == Text.size() || llvm::isSpace(Text[I + 1]));
  };
  size_t Start = Begin;
  while (Start > 0 && !IsStop(Start - 1)) {
    if (Text[Start - 1] == '\n' && startsBlock(Text.substr(Start, Text.find('\n', Start) - Start)))
      break;
    --Start;
  }
  size_t Stop = End;
  while (Stop < Text.size() && !IsStop(Stop)) {
    if (Text[Stop] == '\n' &&
        startsBlock(Text.substr(Stop + 1, Text.find('\n', Stop + 1) - Stop - 1)))
      break;
    ++Stop;
  }
  return Text.slice(Start, Stop);
}

/// Numbered items of the source: number -> text, continuation lines joined.
std::map<std::string, std::string> readItems(llvm::StringRef Text, const llvm::Regex &Item) {
  std::map<std::string, std::string> Items;
  std::string *Current = nullptr;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line.consume_back("\r");
    llvm::SmallVector<llvm::StringRef, 3> Groups;
    if (Item.match(Line, &Groups)) {
      Current = &Items[Groups[1].trim().str()];
      *Current = Groups[2].trim().str();
    } else if (Current && !startsBlock(Line)) {
      *Current += " " + Line.trim().str();
    } else {
      Current = nullptr;
    }
  }
  return Items;
}

std::string preview(const std::string &Text) {
  return Text.size() <= ItemPreviewLength ? Text : Text.substr(0, ItemPreviewLength) + "...";
}

class DocReferenceChecker : public Checker {
public:
  const char *kind() const override { return "doc-reference"; }

  llvm::Error validate(const Rule &R) const override {
    MatchParams P(R);
    if (llvm::Error E = P.allowOnly({"cites", "source", "item", "topics"}))
      return E;
    if (llvm::Error E = P.regex("cites", true, 1))
      return E;
    if (llvm::Error E = P.regex("item", true, 2))
      return E;
    if (auto Source = P.string("source", true); !Source)
      return Source.takeError();
    if (auto Topics = P.strings("topics", true); !Topics)
      return Topics.takeError();
    return llvm::Error::success();
  }

  llvm::Error check(const Repository &Repo, llvm::ArrayRef<const Rule *> Rules,
                    std::vector<Finding> &Out) const override {
    for (const Rule *R : Rules) {
      std::string Source = R->Match["source"].get<std::string>();
      std::optional<std::string> SourceText = Repo.text(Source);
      std::optional<std::map<std::string, std::string>> Items;
      if (SourceText)
        Items = readItems(*SourceText, compileRegex(R->Match["item"].get<std::string>()));
      llvm::Regex Cites = compileRegex(R->Match["cites"].get<std::string>());
      auto Topics = R->Match["topics"].get<std::vector<std::string>>();
      for (const std::string &File : Repo.files())
        if (appliesTo(*R, File))
          if (std::optional<std::string> Text = Repo.text(File))
            checkDoc(*R, Cites, Topics, Source, Items ? &*Items : nullptr, File, *Text, Out);
    }
    return llvm::Error::success();
  }

private:
  static void checkDoc(const Rule &R, const llvm::Regex &Cites,
                       const std::vector<std::string> &Topics, const std::string &Source,
                       const std::map<std::string, std::string> *Items, const std::string &File,
                       llvm::StringRef Text, std::vector<Finding> &Out) {
    unsigned LineNo = 0;
    for (size_t LineStart = 0; LineStart < Text.size();) {
      size_t LineEnd = std::min(Text.find('\n', LineStart), Text.size());
      llvm::StringRef Line = Text.slice(LineStart, LineEnd);
      ++LineNo;
      llvm::SmallVector<llvm::StringRef, 3> Groups;
      for (size_t From = 0; From < Line.size() && Cites.match(Line.substr(From), &Groups);) {
        size_t Column = Groups[0].data() - Line.data();
        size_t Begin = LineStart + Column;
        std::map<std::string, std::string> Captures = {
            {"citation", Groups[0].str()}, {"number", Groups[1].trim().str()}, {"source", Source}};
        if (describe(Captures, Topics, Items,
                     sentenceAround(Text, Begin, Begin + Groups[0].size())))
          Out.push_back(makeFinding(R, File, LineNo, Column + 1, Captures));
        From = Column + std::max<size_t>(Groups[0].size(), 1);
      }
      LineStart = LineEnd + 1;
    }
  }

  /// Fills `{problem}`, `{topics}` and `{item}`; false when the citation
  /// is fine.
  static bool describe(std::map<std::string, std::string> &Captures,
                       const std::vector<std::string> &Topics,
                       const std::map<std::string, std::string> *Items, llvm::StringRef Sentence) {
    const std::string &Citation = Captures["citation"], &Number = Captures["number"],
                      &Source = Captures["source"];
    if (!Items) {
      Captures["problem"] = "cites " + Citation + " but " + Source + " does not exist";
      return true;
    }
    auto Item = Items->find(Number);
    if (Item == Items->end()) {
      Captures["problem"] = "cites " + Citation + " but " + Source + " has no item " + Number;
      return true;
    }
    std::vector<std::string> Claimed = topicsIn(Sentence, Topics);
    if (Claimed.empty() || !topicsIn(Item->second, Claimed).empty())
      return false;
    Captures["topics"] = llvm::join(Claimed, ", ");
    Captures["item"] = preview(Item->second);
    Captures["problem"] = "cites " + Citation + " for " + Captures["topics"] + " but item " +
                          Number + " of " + Source + " is about: " + Captures["item"];
    return true;
  }
};

} // namespace

std::unique_ptr<Checker> makeDocReferenceChecker() {
  return std::make_unique<DocReferenceChecker>();
}

} // namespace opmig::audit
