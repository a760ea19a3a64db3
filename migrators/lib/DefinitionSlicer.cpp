#include "DefinitionSlicer.h"

#include "RewriteIssue.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace opmig::migrate {

using namespace clang;

namespace {

bool isRegistrationMacro(llvm::StringRef Name) {
  return Name == "TORCH_LIBRARY" || Name == "TORCH_LIBRARY_IMPL" ||
         Name == "TORCH_LIBRARY_FRAGMENT" || Name == "PYBIND11_MODULE";
}

bool isDefinition(const Decl *D) {
  if (const auto *Template = dyn_cast<TemplateDecl>(D))
    return Template->getTemplatedDecl() && isDefinition(Template->getTemplatedDecl());
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return FD->isThisDeclarationADefinition();
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return VD->isThisDeclarationADefinition() == VarDecl::Definition;
  if (const auto *TD = dyn_cast<TagDecl>(D))
    return TD->isCompleteDefinition();
  return isa<TypedefNameDecl>(D);
}

/// Names declared by a file-scope declaration (those inside an
/// `extern "C"` block for the block).
void collectNames(const Decl *D, std::vector<std::string> &Names) {
  if (const auto *Linkage = dyn_cast<LinkageSpecDecl>(D)) {
    for (const Decl *Child : Linkage->decls())
      collectNames(Child, Names);
    return;
  }
  if (const auto *ND = dyn_cast<NamedDecl>(D); ND && ND->getDeclName())
    Names.push_back(ND->getQualifiedNameAsString());
}

void findRegistrationBlocks(llvm::ArrayRef<Decl *> TopLevel, ParseLocations &Locs,
                            const std::vector<RegistrationExpansion> &Registrations) {
  const SourceManager &SM = Locs.sourceManager();
  for (const RegistrationExpansion &R : Registrations) {
    FoundDefinition Block;
    Block.Begin = R.Begin;
    Block.End = R.End;
    Block.Line = R.Line;
    Block.Registration = true;
    // The macro declares the registrar and ends with the head of a
    // function whose body, written after the macro, ends the block.
    for (const Decl *D : TopLevel) {
      SourceLocation Begin = SM.getExpansionLoc(D->getBeginLoc());
      if (D->isImplicit() || Locs.expansionFile(Begin) != R.File)
        continue;
      unsigned Offset = SM.getFileOffset(Begin);
      if (Offset < R.Begin || Offset > R.End)
        continue;
      collectNames(D, Block.Names);
      if (ParseLocations::FileRange Range = Locs.declRange(D); Range.File == R.File)
        Block.End = std::max(Block.End, Range.End);
    }
    Locs.observe(*R.File).Definitions.push_back(std::move(Block));
  }
}

class WantedDefinitionFinder {
public:
  explicit WantedDefinitionFinder(ParseLocations &Locs) : Locs(Locs) {}

  void visit(const Decl *D) {
    if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
      for (const Decl *Child : cast<DeclContext>(D)->decls())
        visit(Child);
      return;
    }
    const auto *ND = dyn_cast<NamedDecl>(D);
    if (!ND || D->isImplicit() || !isDefinition(D))
      return;
    const PortedFile *File = Locs.expansionFile(ND->getLocation());
    if (!File)
      return;
    auto Wanted = Locs.context().request().DropDefinitions.find(File->Upstream);
    if (Wanted == Locs.context().request().DropDefinitions.end())
      return;
    std::string Name = ND->getQualifiedNameAsString();
    unsigned Line = Locs.sourceManager().getExpansionLineNumber(ND->getLocation());
    bool IsWanted = llvm::any_of(Wanted->second, [&](const analyze::SiblingDefinition &S) {
      return S.Name == Name && S.Loc.Line == Line;
    });
    ParseLocations::FileRange Range = Locs.declRange(D);
    if (IsWanted && Range.File)
      Locs.observe(*Range.File)
          .Definitions.push_back({Range.Begin, Range.End, Line, {Name}, false});
  }

private:
  ParseLocations &Locs;
};

/// `Begin`..`End` grown to whole lines, with the comment block above, when
/// the definition stands on lines of its own; a blank line around it goes
/// too when that would leave two in a row.
std::pair<unsigned, unsigned> removalRange(const SourceLayout &Layout, unsigned Begin,
                                           unsigned End) {
  if (!Layout.startsLine(Begin) || !Layout.endsLine(End))
    return {Begin, End};
  Begin = Layout.commentBlockAbove(Begin);
  End = Layout.nextLineStart(End);
  bool BlankBefore = Begin == 0 || Layout.isBlankLine(Layout.previousLineStart(Begin));
  if (End < Layout.text().size() && Layout.isBlankLine(End) && BlankBefore)
    End = Layout.nextLineStart(End);
  else if (End == Layout.text().size() && Begin > 0 &&
           Layout.isBlankLine(Layout.previousLineStart(Begin)))
    Begin = Layout.previousLineStart(Begin);
  return {Begin, End};
}

/// Registration macros written in the file but inside no block a parse
/// found: they would stay, with the old binding.
void reportUnexpandedRegistrations(const PortedFile &File,
                                   const std::vector<FoundDefinition> &Found,
                                   std::vector<Finding> &Issues) {
  const SourceLayout &Layout = File.Layout;
  const std::vector<RawToken> &Tokens = Layout.tokens();
  for (size_t I = 0; I + 1 < Tokens.size(); ++I) {
    if (Tokens[I].Kind != tok::raw_identifier || Tokens[I + 1].Kind != tok::l_paren ||
        !isRegistrationMacro(Layout.spelling(Tokens[I])))
      continue;
    unsigned Offset = Tokens[I].Offset;
    bool InDirective = llvm::any_of(Layout.directives(), [&](const Directive &D) {
      return D.Begin <= Offset && Offset < D.End;
    });
    bool Covered = llvm::any_of(Found, [&](const FoundDefinition &F) {
      return F.Registration && F.Begin <= Offset && Offset < F.End;
    });
    if (!InDirective && !Covered)
      Issues.push_back(rewriteIssue(issue_id::RegistrationUnexpanded, File.Upstream,
                                    Layout.lineOf(Offset),
                                    "`" + Layout.spelling(Tokens[I]).str() +
                                        "` block was expanded by no parse and stays in the copy",
                                    true));
  }
}

} // namespace

void RegistrationRecorder::MacroExpands(const Token &Name, const MacroDefinition &,
                                        SourceRange Range, const MacroArgs *) {
  const IdentifierInfo *Id = Name.getIdentifierInfo();
  if (!Id || !isRegistrationMacro(Id->getName()) || !Name.getLocation().isFileID())
    return;
  const PortedFile *File = Locs.expansionFile(Name.getLocation());
  SpelledToken Close = Locs.spelledToken(Range.getEnd());
  if (!File || Close.File != File)
    return;
  Out.push_back({File, Locs.expansionOffset(Name.getLocation()), Close.end(),
                 Locs.sourceManager().getExpansionLineNumber(Name.getLocation())});
}

void findDefinitions(llvm::ArrayRef<Decl *> TopLevel, ParseLocations &Locs,
                     const std::vector<RegistrationExpansion> &Registrations) {
  findRegistrationBlocks(TopLevel, Locs, Registrations);
  if (Locs.context().request().DropDefinitions.empty())
    return;
  WantedDefinitionFinder Finder(Locs);
  for (const Decl *D : TopLevel)
    Finder.visit(D);
}

SlicePlan planSlices(const PortedFile &File, const std::vector<FoundDefinition> &Found,
                     const std::vector<analyze::SiblingDefinition> &Wanted,
                     std::vector<Finding> &Issues) {
  std::vector<const FoundDefinition *> Chosen;
  for (const FoundDefinition &F : Found)
    if (F.Registration)
      Chosen.push_back(&F);
  for (const analyze::SiblingDefinition &S : Wanted) {
    auto Matches = [&](const FoundDefinition &F) {
      return llvm::is_contained(F.Names, S.Name) && (F.Registration || F.Line == S.Loc.Line);
    };
    auto It = llvm::find_if(Found, Matches);
    if (It == Found.end()) {
      Issues.push_back(
          rewriteIssue(issue_id::DefinitionNotFound, File.Upstream, S.Loc.Line,
                       "definition `" + S.Name + "` to leave out was found by no parse", true));
      continue;
    }
    Chosen.push_back(&*It);
  }
  std::sort(Chosen.begin(), Chosen.end(), [](const FoundDefinition *A, const FoundDefinition *B) {
    return std::tie(A->Begin, A->End) < std::tie(B->Begin, B->End);
  });
  SlicePlan Plan;
  llvm::StringSet<> Seen;
  for (const FoundDefinition *F : Chosen) {
    std::pair<unsigned, unsigned> Range = removalRange(File.Layout, F->Begin, F->End);
    if (!Plan.Removed.empty() && Range.first <= Plan.Removed.back().second) {
      Plan.Removed.back().second = std::max(Plan.Removed.back().second, Range.second);
    } else {
      Plan.Removed.push_back(Range);
      Plan.RemovedNames.emplace_back();
    }
    for (const std::string &Name : F->Names) {
      if (!llvm::is_contained(Plan.RemovedNames.back(), Name))
        Plan.RemovedNames.back().push_back(Name);
      if (Seen.insert(Name).second)
        Plan.Dropped.push_back(Name);
    }
  }
  // A copy that now ends in blank lines loses them.
  const SourceLayout &Layout = File.Layout;
  if (!Plan.Removed.empty() && Plan.Removed.back().second == Layout.text().size()) {
    unsigned &Begin = Plan.Removed.back().first;
    while (Begin > 0 && Layout.lineStart(Begin) == Begin &&
           Layout.isBlankLine(Layout.previousLineStart(Begin)))
      Begin = Layout.previousLineStart(Begin);
  }
  reportUnexpandedRegistrations(File, Found, Issues);
  return Plan;
}

} // namespace opmig::migrate
