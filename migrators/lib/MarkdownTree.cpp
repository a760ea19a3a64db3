#include "MarkdownTree.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace opmig::migrate {

namespace {

/// Box-drawing glyphs (three bytes each in UTF-8) and their ASCII stand-ins.
constexpr llvm::StringLiteral Glyphs[] = {"│", "├", "└", "─", "|", "+", "`", "-", " "};

/// One entry of a drawn tree.
struct TreeEntry {
  size_t Column = 0;    ///< Characters before the name.
  std::string Prefix;   ///< The glyphs before the name.
  llvm::StringRef Name; ///< `ops/`.
};

std::optional<TreeEntry> parseEntry(llvm::StringRef Line) {
  TreeEntry Entry;
  llvm::StringRef Rest = Line;
  while (!Rest.empty()) {
    const llvm::StringLiteral *Glyph =
        llvm::find_if(Glyphs, [&](llvm::StringRef G) { return Rest.starts_with(G); });
    if (Glyph == std::end(Glyphs))
      break;
    Rest = Rest.drop_front(Glyph->size());
    ++Entry.Column;
  }
  Entry.Prefix = Line.drop_back(Rest.size()).str();
  Entry.Name = Rest.split(' ').first.rtrim();
  if (Entry.Name.empty())
    return std::nullopt;
  return Entry;
}

bool isFence(llvm::StringRef Line) {
  llvm::StringRef Trimmed = Line.ltrim();
  return Trimmed.starts_with("```") || Trimmed.starts_with("~~~");
}

/// `Prefix` continued below its entry: the entry's own branch becomes a
/// vertical line (`├── ` -> `│   `) or blank (`└── ` -> 4 spaces).
std::string continuationOf(llvm::StringRef Prefix) {
  for (auto [Branch, Below] : {std::pair<llvm::StringRef, llvm::StringRef>{"├── ", "│   "},
                               {"└── ", "    "},
                               {"|-- ", "|   "},
                               {"+-- ", "|   "},
                               {"`-- ", "    "}})
    if (Prefix.ends_with(Branch))
      return (Prefix.drop_back(Branch.size()) + Below).str();
  return Prefix.str();
}

/// A child's prefix for an entry that comes before `Sibling`'s: never the
/// last branch.
std::string notLast(llvm::StringRef Sibling) {
  if (Sibling.ends_with("└── "))
    return (Sibling.drop_back(llvm::StringRef("└── ").size()) + "├── ").str();
  if (Sibling.ends_with("`-- "))
    return (Sibling.drop_back(4) + "|-- ").str();
  return Sibling.str();
}

} // namespace

std::string treePrefixOf(llvm::StringRef Line) {
  std::optional<TreeEntry> Entry = parseEntry(Line);
  return Entry ? Entry->Prefix : std::string();
}

std::optional<TreeChildPlacement> locateTreeFolder(const FileLines &File, llvm::StringRef Folder) {
  llvm::SmallVector<llvm::StringRef> Segments;
  Folder.trim("/").split(Segments, '/');
  bool InFence = false;
  std::vector<TreeEntry> Ancestors;
  for (size_t I = 0; I < File.Lines.size(); ++I) {
    llvm::StringRef Line = File.text(I);
    if (isFence(Line)) {
      InFence = !InFence;
      Ancestors.clear();
      continue;
    }
    std::optional<TreeEntry> Entry = InFence ? parseEntry(Line) : std::nullopt;
    if (!Entry)
      continue;
    while (!Ancestors.empty() && Ancestors.back().Column >= Entry->Column)
      Ancestors.pop_back();
    bool Matches =
        Entry->Name == Segments.back().str() + "/" && Ancestors.size() + 1 >= Segments.size();
    for (size_t K = 1; Matches && K < Segments.size(); ++K)
      Matches =
          Ancestors[Ancestors.size() - K].Name == Segments[Segments.size() - 1 - K].str() + "/";
    if (Matches) {
      std::optional<TreeEntry> Next =
          I + 1 < File.Lines.size() ? parseEntry(File.text(I + 1)) : std::nullopt;
      if (Next && Next->Column > Entry->Column && !isFence(File.text(I + 1)))
        return TreeChildPlacement{I + 1, notLast(Next->Prefix)};
      return TreeChildPlacement{I + 1, continuationOf(Entry->Prefix) + "└── "};
    }
    Ancestors.push_back(*Entry);
  }
  return std::nullopt;
}

} // namespace opmig::migrate
