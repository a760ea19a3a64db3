//===- CoverageRecorder.h - What of a ported file a parse saw ---*- C++ -*-===//
//
// A name left unrewritten matters most in code a parse compiled. This records,
// per parse, what of each ported file it did not see: `#if` branches it
// skipped and macros it defined but never expanded. A name left in such a
// range is reported without blocking the migration; elsewhere it blocks.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_COVERAGERECORDER_H
#define OPMIG_MIGRATE_LIB_COVERAGERECORDER_H

#include "ParseLocations.h"

#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"

namespace opmig::migrate {

class CoverageRecorder : public clang::PPCallbacks {
public:
  explicit CoverageRecorder(ParseLocations &Locs) : Locs(Locs) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind FileType, clang::FileID PrevFID) override;
  void SourceRangeSkipped(clang::SourceRange Range, clang::SourceLocation EndifLoc) override;
  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override;
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &MD,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;
  void EndOfMainFile() override;

private:
  struct Definition {
    const PortedFile *File = nullptr;
    unsigned Begin = 0, End = 0;
    bool Expanded = false;
  };

  ParseLocations &Locs;
  llvm::DenseMap<const clang::MacroInfo *, Definition> Macros;
};

} // namespace opmig::migrate

#endif
