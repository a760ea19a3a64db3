#include "PPFactsRecorder.h"

#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/MacroInfo.h"

namespace opmig::analyze {

using namespace clang;

void PPFactsRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName,
                                         bool IsAngled, CharSourceRange, OptionalFileEntryRef File,
                                         StringRef, StringRef, const Module *, bool,
                                         SrcMgr::CharacteristicKind) {
  recordInclude(HashLoc, FileName, IsAngled, File, /*HasIncludeOnly=*/false);
}

void PPFactsRecorder::HasInclude(SourceLocation Loc, StringRef FileName, bool IsAngled,
                                 OptionalFileEntryRef File, SrcMgr::CharacteristicKind) {
  recordInclude(Loc, FileName, IsAngled, File, /*HasIncludeOnly=*/true);
}

void PPFactsRecorder::recordInclude(SourceLocation Loc, StringRef FileName, bool IsAngled,
                                    OptionalFileEntryRef File, bool HasIncludeOnly) {
  if (!Locs.inTree(Loc))
    return;
  IncludeFact Include;
  Include.Includer = Locs.fileOf(Loc);
  Include.Line = Locs.lineOf(Loc);
  Include.Spelling = FileName.str();
  Include.Angled = IsAngled;
  Include.HasIncludeOnly = HasIncludeOnly;
  if (File) {
    StringRef Real = File->getFileEntry().tryGetRealPathName();
    Include.Resolved = realPathOf(Real.empty() ? File->getName() : Real);
  }
  Facts.Includes.push_back(std::move(Include));
}

void PPFactsRecorder::MacroExpands(const Token &MacroNameTok, const MacroDefinition &MD,
                                   SourceRange Range, const MacroArgs *Args) {
  StringRef Name = MacroNameTok.getIdentifierInfo()->getName();
  if (Name.starts_with("TORCH_LIBRARY") || Name == "PYBIND11_MODULE")
    recordRegistrationBlock(Name, Range.getBegin(), Args);
  recordMacroUse(MacroNameTok, MD, Range.getBegin());
}

void PPFactsRecorder::Defined(const Token &MacroNameTok, const MacroDefinition &MD,
                              SourceRange Range) {
  recordMacroUse(MacroNameTok, MD, Range.getBegin());
}

void PPFactsRecorder::Ifdef(SourceLocation Loc, const Token &MacroNameTok,
                            const MacroDefinition &MD) {
  recordMacroUse(MacroNameTok, MD, Loc);
}

void PPFactsRecorder::Ifndef(SourceLocation Loc, const Token &MacroNameTok,
                             const MacroDefinition &MD) {
  recordMacroUse(MacroNameTok, MD, Loc);
}

void PPFactsRecorder::recordMacroUse(const Token &MacroNameTok, const MacroDefinition &MD,
                                     SourceLocation UseLoc) {
  const MacroInfo *Info = MD.getMacroInfo();
  if (!Info || !Locs.inTree(Info->getDefinitionLoc()) || !Locs.inTree(UseLoc))
    return;
  std::string DefFile = Locs.fileOf(Info->getDefinitionLoc());
  unsigned DefLine = Locs.lineOf(Info->getDefinitionLoc());
  std::string Name = MacroNameTok.getIdentifierInfo()->getName().str();
  std::string Id = "macro:" + Name + "@" + DefFile + ":" + std::to_string(DefLine);
  auto [It, Inserted] = Facts.Symbols.try_emplace(Id);
  if (Inserted) {
    SymbolFact &Macro = It->second;
    Macro.Name = Name;
    Macro.Kind = SymbolKind::Macro;
    Macro.File = DefFile;
    Macro.Line = DefLine;
    Macro.IsDefinition = true;
  }
  PPFacts.MacroUses.push_back({Locs.fileOf(UseLoc), Locs.offsetOf(UseLoc), std::move(Id)});
}

void PPFactsRecorder::recordRegistrationBlock(StringRef Macro, SourceLocation Loc,
                                              const MacroArgs *Args) {
  if (!Args || Args->getNumMacroArguments() == 0 || !Locs.inTree(Loc))
    return;
  const Token *First = Args->getUnexpArgument(0);
  if (!First || First->is(tok::eof))
    return;
  RegistrationBlock Block;
  Block.File = Locs.fileOf(Loc);
  Block.Offset = Locs.offsetOf(Loc);
  Block.Via = Macro == "PYBIND11_MODULE" ? "pybind" : "torch-op";
  Block.Namespace = PP.getSpelling(*First);
  PPFacts.Blocks.push_back(std::move(Block));
}

} // namespace opmig::analyze
