#include "ParseLocations.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// The outermost declaration a definition is written as: the template
/// around a templated function or class.
const Decl *writtenDecl(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate())
      return Template;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const ClassTemplateDecl *Template = RD->getDescribedClassTemplate())
      return Template;
  return D;
}

/// The declaration whose attributes are written first: the templated one
/// for a template (`template <..> __global__ void k()`).
const Decl *attributedDecl(const Decl *D) {
  if (const auto *Template = dyn_cast<TemplateDecl>(D))
    if (const NamedDecl *Templated = Template->getTemplatedDecl())
      return Templated;
  return D;
}

} // namespace

std::string realPathOfEntry(FileEntryRef Entry, const SourceManager &SM) {
  // The file manager resolved it when it opened the file: no system call.
  StringRef Real = Entry.getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return Real.str();
  SmallString<256> Path(Entry.getName());
  SM.getFileManager().makeAbsolutePath(Path);
  return realPathOf(Path);
}

std::string inputPathOf(FileEntryRef Entry, const SourceManager &SM) {
  SmallString<256> Path(Entry.getName());
  SM.getFileManager().makeAbsolutePath(Path);
  return realPathOf(Path);
}

const PortedFile *ParseLocations::portedFile(FileID FID) {
  auto [It, Inserted] = Files.try_emplace(FID, nullptr);
  if (Inserted)
    if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID))
      It->second = Ctx.byRealPath(realPathOfEntry(*Entry, SM));
  return It->second;
}

const PortedFile *ParseLocations::expansionFile(SourceLocation Loc) {
  if (Loc.isInvalid())
    return nullptr;
  return portedFile(SM.getFileID(SM.getExpansionLoc(Loc)));
}

unsigned ParseLocations::expansionOffset(SourceLocation Loc) const {
  return SM.getFileOffset(SM.getExpansionLoc(Loc));
}

std::pair<unsigned, unsigned> ParseLocations::expansionSpan(SourceLocation Loc) const {
  CharSourceRange Range = SM.getExpansionRange(Loc);
  SourceLocation End = Range.isTokenRange()
                           ? Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, LangOpts)
                           : Range.getEnd();
  return {SM.getFileOffset(Range.getBegin()), SM.getFileOffset(End)};
}

SpelledToken ParseLocations::spelledToken(SourceLocation Loc) {
  SpelledToken Tok;
  if (Loc.isInvalid())
    return Tok;
  Tok.InMacro = Loc.isMacroID();
  SourceLocation Spelling = SM.getSpellingLoc(Loc);
  if (SM.isWrittenInScratchSpace(Spelling)) {
    Tok.Pasted = true;
    return Tok;
  }
  Tok.File = portedFile(SM.getFileID(Spelling));
  Tok.Offset = SM.getFileOffset(Spelling);
  Tok.Length = Lexer::MeasureTokenLength(Spelling, SM, LangOpts);
  return Tok;
}

analyze::Location ParseLocations::issueLocation(SourceLocation Loc) {
  analyze::Location Where;
  if (Loc.isInvalid())
    return Where;
  SourceLocation Expansion = SM.getExpansionLoc(Loc);
  if (const PortedFile *File = portedFile(SM.getFileID(Expansion)))
    Where.File = File->Upstream;
  else if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(SM.getFileID(Expansion)))
    Where.File = Ctx.relative(realPathOfEntry(*Entry, SM));
  Where.Line = SM.getExpansionLineNumber(Loc);
  return Where;
}

ParseLocations::FileRange ParseLocations::declRange(const Decl *D) {
  const Decl *Written = writtenDecl(D);
  SourceLocation Begin = SM.getExpansionLoc(Written->getBeginLoc());
  SourceLocation End = SM.getExpansionLoc(Written->getEndLoc());
  if (Begin.isInvalid() || End.isInvalid())
    return {};
  // `__global__ void k()`: the attribute's macro comes before the range
  // Clang gives the declaration.
  for (const Attr *A : attributedDecl(Written)->attrs()) {
    if (A->isImplicit() || A->getLocation().isInvalid())
      continue;
    SourceLocation AttrBegin = SM.getExpansionLoc(A->getRange().getBegin());
    if (SM.getFileID(AttrBegin) == SM.getFileID(Begin) &&
        SM.isBeforeInTranslationUnit(AttrBegin, Begin))
      Begin = AttrBegin;
  }
  FileID FID = SM.getFileID(Begin);
  const PortedFile *File = portedFile(FID);
  if (!File || SM.getFileID(End) != FID)
    return {};
  FileRange Range{File, SM.getFileOffset(Begin),
                  SM.getFileOffset(End) + Lexer::MeasureTokenLength(End, SM, LangOpts)};
  const SourceLayout &Layout = File->Layout;
  if (std::optional<size_t> Next = Layout.codeTokenFrom(Range.End);
      Next && Layout.tokens()[*Next].Kind == tok::semi)
    Range.End = Layout.tokens()[*Next].end();
  return Range;
}

} // namespace opmig::migrate
