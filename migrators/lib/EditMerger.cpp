#include "EditMerger.h"

#include "RewriteIssue.h"

#include <algorithm>

namespace opmig::migrate {

namespace {

enum class Overlap { None, Inside, Partial };

Overlap overlapOf(const FileEdit &Edit, const std::pair<unsigned, unsigned> &Range) {
  auto [Begin, End] = Range;
  if (Edit.Length == 0) // An insertion at either end of a removal stays.
    return Begin < Edit.Offset && Edit.Offset < End ? Overlap::Inside : Overlap::None;
  if (Begin <= Edit.Offset && Edit.end() <= End)
    return Overlap::Inside;
  return Edit.Offset < End && Begin < Edit.end() ? Overlap::Partial : Overlap::None;
}

void conflict(const PortedFile &File, unsigned Offset, const std::string &Message,
              std::vector<Finding> &Issues) {
  Issues.push_back(rewriteIssue(issue_id::EditConflict, File.Upstream, File.Layout.lineOf(Offset),
                                Message, true));
}

} // namespace

clang::tooling::Replacements
buildReplacements(const PortedFile &File, std::vector<FileEdit> Edits,
                  const std::vector<std::pair<unsigned, unsigned>> &Removed,
                  std::vector<Finding> &Issues) {
  std::vector<FileEdit> Kept;
  for (FileEdit &Edit : Edits) {
    Overlap Worst = Overlap::None;
    for (const std::pair<unsigned, unsigned> &Range : Removed)
      Worst = std::max(Worst, overlapOf(Edit, Range));
    if (Worst == Overlap::Partial)
      conflict(File, Edit.Offset, "a " + Edit.Why + " edit overlaps a definition left out", Issues);
    if (Worst == Overlap::None)
      Kept.push_back(std::move(Edit));
  }
  for (const auto &[Begin, End] : Removed)
    Kept.push_back({Begin, End - Begin, "", EditOrder::Code, "slice"});
  std::stable_sort(Kept.begin(), Kept.end(), [](const FileEdit &A, const FileEdit &B) {
    return std::tie(A.Offset, A.Order) < std::tie(B.Offset, B.Order);
  });

  clang::tooling::Replacements Result;
  for (size_t I = 0; I < Kept.size();) {
    // One replacement per offset: its insertions in order, then the one
    // edit that replaces text there.
    unsigned Offset = Kept[I].Offset;
    std::string Inserted;
    std::vector<std::string> InsertedSeen;
    const FileEdit *Replacing = nullptr;
    for (; I < Kept.size() && Kept[I].Offset == Offset; ++I) {
      const FileEdit &Edit = Kept[I];
      if (Edit.Length == 0) {
        if (!llvm::is_contained(InsertedSeen, Edit.Text)) {
          InsertedSeen.push_back(Edit.Text);
          Inserted += Edit.Text;
        }
        continue;
      }
      if (!Replacing)
        Replacing = &Edit;
      else if (Replacing->Length != Edit.Length || Replacing->Text != Edit.Text)
        conflict(File, Offset,
                 "conflicting edits of the same text: `" + Replacing->Text + "` (" +
                     Replacing->Why + ") and `" + Edit.Text + "` (" + Edit.Why + ")",
                 Issues);
    }
    clang::tooling::Replacement R(File.Upstream, Offset, Replacing ? Replacing->Length : 0,
                                  Inserted + (Replacing ? Replacing->Text : ""));
    if (llvm::Error Err = Result.add(R))
      conflict(File, Offset, "overlapping edits: " + llvm::toString(std::move(Err)), Issues);
  }
  return Result;
}

} // namespace opmig::migrate
