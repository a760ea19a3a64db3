//===- ParseLocations.h - Clang locations as ported-file offsets -*- C++ -*-===//
//
// One parse's view of where things are written. An edit has to land where
// the text is: a token from a macro argument is edited at its spelling in
// the argument, one from a macro body in the `#define`; a token made by
// `##` exists in no file and cannot be edited at all.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_LIB_PARSELOCATIONS_H
#define OPMIG_MIGRATE_LIB_PARSELOCATIONS_H

#include "ParseRecord.h"
#include "RewriteContext.h"

#include "clang/AST/DeclBase.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace opmig::migrate {

/// A token as written.
struct SpelledToken {
  const PortedFile *File = nullptr; ///< Null when not written in a ported file.
  unsigned Offset = 0;
  unsigned Length = 0;
  bool Pasted = false;  ///< Made by `##`: written nowhere.
  bool InMacro = false; ///< Reached through a macro expansion.

  bool editable() const { return File && !Pasted; }
  unsigned end() const { return Offset + Length; }
};

/// Absolute real path of a file Clang opened (names may be relative to the
/// parse's working directory).
std::string realPathOfEntry(clang::FileEntryRef Entry, const clang::SourceManager &SM);

/// The path a cache entry stamps for a file the parse read: its name as
/// opened, resolved on disk. Unlike the name the file manager keeps, it is
/// right for headers loaded through a precompiled preamble too.
std::string inputPathOf(clang::FileEntryRef Entry, const clang::SourceManager &SM);

class ParseLocations {
public:
  ParseLocations(const clang::SourceManager &SM, const clang::LangOptions &LangOpts,
                 const RewriteContext &Ctx, ParseRecord &Record)
      : SM(SM), LangOpts(LangOpts), Ctx(Ctx), Record(Record) {}

  const clang::SourceManager &sourceManager() const { return SM; }
  const RewriteContext &context() const { return Ctx; }
  ParseRecord &record() { return Record; }

  const PortedFile *portedFile(clang::FileID FID);
  /// The ported file holding `Loc` after macro expansion, or null.
  const PortedFile *expansionFile(clang::SourceLocation Loc);
  /// Offset of `Loc`'s expansion in its file.
  unsigned expansionOffset(clang::SourceLocation Loc) const;
  /// Offsets of the text `Loc`'s expansion covers in its file: the whole
  /// macro invocation for a location inside one, else its token.
  std::pair<unsigned, unsigned> expansionSpan(clang::SourceLocation Loc) const;
  /// The token at `Loc` as written.
  SpelledToken spelledToken(clang::SourceLocation Loc);
  /// Upstream-relative file and line of `Loc`'s expansion, for issues.
  analyze::Location issueLocation(clang::SourceLocation Loc);
  /// The text `D` covers in its ported file after macro expansion: its
  /// `template <...>` header, leading attributes (`__global__`) and a
  /// trailing `;` included. Null file when `D` is not in one ported file.
  struct FileRange {
    const PortedFile *File = nullptr;
    unsigned Begin = 0, End = 0;
  };
  FileRange declRange(const clang::Decl *D);

  FileObservation &observe(const PortedFile &File) { return Record.Files[File.Upstream]; }
  void addEdit(const PortedFile &File, FileEdit Edit) {
    Record.Edits[File.Upstream].push_back(std::move(Edit));
  }
  void markHandled(const SpelledToken &Tok) {
    if (Tok.editable())
      observe(*Tok.File).Handled.insert(Tok.Offset);
  }

private:
  const clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  const RewriteContext &Ctx;
  ParseRecord &Record;
  llvm::DenseMap<clang::FileID, const PortedFile *> Files;
};

} // namespace opmig::migrate

#endif
