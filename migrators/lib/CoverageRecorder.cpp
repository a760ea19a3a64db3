#include "CoverageRecorder.h"

#include "clang/Lex/MacroInfo.h"

namespace opmig::migrate {

using namespace clang;

void CoverageRecorder::FileChanged(SourceLocation Loc, FileChangeReason Reason,
                                   SrcMgr::CharacteristicKind, FileID) {
  // A ported file the parse entered has an observation even when nothing
  // else is recorded for it: it was seen.
  if (Reason == EnterFile)
    if (const PortedFile *File = Locs.expansionFile(Loc))
      Locs.observe(*File);
}

void CoverageRecorder::SourceRangeSkipped(SourceRange Range, SourceLocation) {
  const SourceManager &SM = Locs.sourceManager();
  const PortedFile *File = Locs.expansionFile(Range.getBegin());
  if (!File || SM.getFileID(Range.getBegin()) != SM.getFileID(Range.getEnd()))
    return;
  Locs.observe(*File).Unseen.push_back({SM.getFileOffset(Range.getBegin()),
                                        SM.getFileOffset(Range.getEnd()),
                                        UnseenReason::SkippedBranch});
}

void CoverageRecorder::MacroDefined(const Token &Name, const MacroDirective *MD) {
  const MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr;
  if (!Info || !Name.getLocation().isFileID())
    return;
  const PortedFile *File = Locs.expansionFile(Name.getLocation());
  SpelledToken Last = Locs.spelledToken(Info->getDefinitionEndLoc());
  if (File && Last.File == File)
    Macros[Info] = {File, Locs.expansionOffset(Name.getLocation()), Last.end(), false};
}

void CoverageRecorder::MacroExpands(const Token &, const MacroDefinition &MD, SourceRange,
                                    const MacroArgs *) {
  if (auto It = Macros.find(MD.getMacroInfo()); It != Macros.end())
    It->second.Expanded = true;
}

void CoverageRecorder::EndOfMainFile() {
  for (const auto &[Info, Def] : Macros)
    if (!Def.Expanded)
      Locs.observe(*Def.File).Unseen.push_back({Def.Begin, Def.End, UnseenReason::UnexpandedMacro});
}

} // namespace opmig::migrate
