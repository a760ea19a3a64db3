#include "IncludeRewriter.h"

#include "RewriteIssue.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace opmig::migrate {

using namespace clang;

namespace {

std::vector<std::string> pathParts(llvm::StringRef Path) {
  llvm::SmallString<128> Clean(Path);
  llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true, llvm::sys::path::Style::posix);
  std::vector<std::string> Parts;
  for (auto It = llvm::sys::path::begin(Clean, llvm::sys::path::Style::posix),
            End = llvm::sys::path::end(Clean);
       It != End; ++It)
    if (*It != "." && *It != "/")
      Parts.push_back(It->str());
  return Parts;
}

bool isDroppedInclude(const RewriteRequest &Request, const PortedFile &File, unsigned Line) {
  auto It = Request.DropIncludeLines.find(File.Upstream);
  return It != Request.DropIncludeLines.end() && It->second.count(Line);
}

/// The whole directive line, newline included.
FileEdit includeRemoval(const PortedFile &File, unsigned DirectiveBegin) {
  unsigned Begin = File.Layout.lineStart(DirectiveBegin);
  return {Begin, File.Layout.nextLineStart(DirectiveBegin) - Begin, "", EditOrder::Code,
          "include left out with the siblings"};
}

} // namespace

std::string relativePath(llvm::StringRef FromDir, llvm::StringRef To) {
  std::vector<std::string> From = pathParts(FromDir), Target = pathParts(To);
  size_t Common = 0;
  while (Common < From.size() && Common + 1 < Target.size() && From[Common] == Target[Common])
    ++Common;
  std::string Result;
  for (size_t I = Common; I < From.size(); ++I)
    Result += "../";
  for (size_t I = Common; I < Target.size(); ++I)
    Result += Target[I] + (I + 1 < Target.size() ? "/" : "");
  return Result;
}

std::string includeSpelling(const RewriteRequest &Request, const PortedFile &Includer,
                            const PortedFile &Included) {
  llvm::StringRef From =
      Request.Includes == IncludeStyle::RelativeToRoot
          ? llvm::StringRef(Request.IncludeRoot)
          : llvm::sys::path::parent_path(Includer.Target, llvm::sys::path::Style::posix);
  return "\"" + relativePath(From, Included.Target) + "\"";
}

void IncludeRewriter::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName,
                                         bool, CharSourceRange FilenameRange,
                                         OptionalFileEntryRef File, StringRef, StringRef,
                                         const Module *, bool, SrcMgr::CharacteristicKind) {
  const SourceManager &SM = Locs.sourceManager();
  if (!HashLoc.isFileID())
    return;
  const PortedFile *Includer = Locs.portedFile(SM.getFileID(HashLoc));
  if (!Includer || !File)
    return;
  unsigned HashOffset = SM.getFileOffset(HashLoc);
  Locs.observe(*Includer).SeenIncludes.insert(HashOffset);
  const RewriteContext &Ctx = Locs.context();
  std::string Real = realPathOfEntry(*File, SM);
  unsigned Line = SM.getExpansionLineNumber(HashLoc);
  switch (Ctx.classify(Real)) {
  case PathClass::External:
    return;
  case PathClass::TreeNotPorted:
    if (isDroppedInclude(Ctx.request(), *Includer, Line)) {
      Locs.addEdit(*Includer, includeRemoval(*Includer, HashOffset));
      return;
    }
    Locs.record().addIssue(issue_id::IncludeNotPorted, Includer->Upstream, Line,
                           "includes `" + Ctx.relative(Real) + "`, which is not ported", true,
                           HashOffset);
    return;
  case PathClass::Ported:
    break;
  }
  std::string Spelling = includeSpelling(Ctx.request(), *Includer, *Ctx.byRealPath(Real));
  SourceLocation Begin = FilenameRange.getBegin(), End = FilenameRange.getEnd();
  if (!Begin.isFileID() || !End.isFileID() || SM.getFileID(Begin) != SM.getFileID(HashLoc)) {
    Locs.record().addIssue(issue_id::IncludeThroughMacro, Includer->Upstream, Line,
                           "include of `" + FileName.str() +
                               "` is written through a macro and cannot be respelled",
                           true, HashOffset);
    return;
  }
  unsigned Offset = SM.getFileOffset(Begin);
  unsigned EndOffset =
      FilenameRange.isTokenRange() ? Locs.spelledToken(End).end() : SM.getFileOffset(End);
  if (Includer->Layout.text().substr(Offset, EndOffset - Offset) != Spelling)
    Locs.addEdit(*Includer, {Offset, EndOffset - Offset, Spelling, EditOrder::Code, "include"});
}

IncludeSearchPath searchPathOf(const std::vector<std::string> &Flags, llvm::StringRef Root) {
  IncludeSearchPath Search;
  auto Absolute = [&](llvm::StringRef Dir) {
    if (llvm::sys::path::is_absolute(Dir))
      return Dir.str();
    return (Root + "/" + Dir).str();
  };
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef Flag = Flags[I];
    for (llvm::StringRef Option : {"-iquote", "-isystem", "-idirafter", "-I"}) {
      if (!Flag.starts_with(Option))
        continue;
      llvm::StringRef Dir = Flag.drop_front(Option.size());
      if (Dir.empty() && I + 1 < Flags.size())
        Dir = Flags[++I];
      if (!Dir.empty())
        (Option == "-iquote" ? Search.Quote : Search.Angled).push_back(Absolute(Dir));
      break;
    }
  }
  return Search;
}

void rewriteUnparsedIncludes(const RewriteContext &Ctx, const PortedFile &File,
                             const std::set<unsigned> &SeenIncludes,
                             const IncludeSearchPath &Search,
                             const std::function<bool(unsigned)> &IsSeen,
                             std::vector<FileEdit> &Edits, std::vector<Finding> &Issues) {
  for (const IncludeSpelling &Include : File.Layout.includes()) {
    if (SeenIncludes.count(Include.DirectiveBegin))
      continue;
    std::vector<std::string> Dirs;
    if (!Include.Angled) {
      Dirs.push_back(llvm::sys::path::parent_path(File.RealPath).str());
      Dirs.insert(Dirs.end(), Search.Quote.begin(), Search.Quote.end());
    }
    Dirs.insert(Dirs.end(), Search.Angled.begin(), Search.Angled.end());
    std::string Real;
    for (const std::string &Dir : Dirs)
      if (std::string Candidate = Dir + "/" + Include.Name;
          llvm::sys::fs::is_regular_file(Candidate)) {
        Real = realPathOf(Candidate);
        break;
      }
    if (Real.empty())
      continue; // Not in the tree as far as the flags say: external.
    unsigned Line = File.Layout.lineOf(Include.DirectiveBegin);
    switch (Ctx.classify(Real)) {
    case PathClass::External:
      continue;
    case PathClass::TreeNotPorted: {
      if (isDroppedInclude(Ctx.request(), File, Line)) {
        Edits.push_back(includeRemoval(File, Include.DirectiveBegin));
        continue;
      }
      bool Seen = IsSeen(Include.DirectiveBegin);
      Issues.push_back(rewriteIssue(issue_id::IncludeNotPorted, File.Upstream, Line,
                                    "includes `" + Ctx.relative(Real) + "`, which is not ported" +
                                        (Seen ? "" : " (in a branch no parse entered)"),
                                    Seen));
      continue;
    }
    case PathClass::Ported:
      break;
    }
    std::string Spelling = includeSpelling(Ctx.request(), File, *Ctx.byRealPath(Real));
    llvm::StringRef Written = File.Layout.text().substr(Include.Begin, Include.End - Include.Begin);
    if (Written != Spelling)
      Edits.push_back(
          {Include.Begin, Include.End - Include.Begin, Spelling, EditOrder::Code, "include"});
  }
}

} // namespace opmig::migrate
