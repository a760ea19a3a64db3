#include "NamespaceRenamer.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <set>

namespace opmig::migrate {

using namespace clang;

std::string namespacePath(const DeclContext *DC) {
  std::vector<std::string> Parts;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && !NS->isAnonymousNamespace())
      Parts.push_back(NS->getName().str());
  std::reverse(Parts.begin(), Parts.end());
  return joinPath(Parts);
}

namespace {

/// One namespace (or namespace alias) named in a chain `a::b::`.
struct ChainPart {
  const NamespaceBaseDecl *Decl = nullptr;
  SourceLocation NameLoc;
};

struct Chain {
  std::vector<ChainPart> Parts;
  SourceLocation GlobalLoc; ///< Valid when the chain starts with `::`.
};

/// The namespace part of a nested-name-specifier, outermost first.
Chain chainOf(NestedNameSpecifierLoc NNS) {
  Chain Result;
  while (NNS) {
    NestedNameSpecifier::Kind Kind = NNS.getNestedNameSpecifier().getKind();
    if (Kind == NestedNameSpecifier::Kind::Global)
      Result.GlobalLoc = NNS.getLocalBeginLoc();
    if (Kind != NestedNameSpecifier::Kind::Namespace)
      break;
    NamespaceAndPrefixLoc Part = NNS.castAsNamespaceAndPrefix();
    Result.Parts.insert(Result.Parts.begin(), {Part.Namespace, NNS.getLocalBeginLoc()});
    NNS = Part.Prefix;
  }
  return Result;
}

/// The path a chain part names (an alias: the path of the alias itself).
std::string declaredPath(const NamespaceBaseDecl *D) {
  if (const auto *NS = dyn_cast<NamespaceDecl>(D))
    return namespacePath(NS);
  return appendPath(namespacePath(D->getDeclContext()), D->getName());
}

/// The namespace a `namespace a::b::c {` header opens after `NS` (`b` after
/// `a`), or null.
const NamespaceDecl *nestedChild(const NamespaceDecl *NS) {
  for (const Decl *Child : NS->decls())
    if (const auto *Nested = dyn_cast<NamespaceDecl>(Child); Nested && Nested->isNested())
      return Nested;
  return nullptr;
}

/// `Path` without its last `Count` components when those are `Tail`.
std::optional<std::string> stripTail(llvm::StringRef Path, const std::vector<std::string> &Tail) {
  std::vector<std::string> Parts = splitPath(Path);
  if (Parts.size() < Tail.size() ||
      !std::equal(Tail.begin(), Tail.end(), Parts.end() - Tail.size()))
    return std::nullopt;
  Parts.resize(Parts.size() - Tail.size());
  return joinPath(Parts);
}

class NamespaceRenamer : public DynamicRecursiveASTVisitor {
  using Base = DynamicRecursiveASTVisitor;

public:
  NamespaceRenamer(ASTContext &AST, ParseLocations &Locs, WrapPolicy &Wrap)
      : Locs(Locs), Wrap(Wrap), Renames(Locs.context().renames()),
        Vanishing(Renames.vanishingNames()) {
    Contexts.push_back(AST.getTranslationUnitDecl());
  }

  bool TraverseDecl(Decl *D) override;
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) override;
  bool TraverseUsingDirectiveDecl(UsingDirectiveDecl *D) override;
  bool TraverseNamespaceAliasDecl(NamespaceAliasDecl *D) override;

  bool VisitNamespaceDecl(NamespaceDecl *D) override;
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *D) override;
  bool VisitClassTemplateDecl(ClassTemplateDecl *D) override;
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    notNamespace(E->getDecl(), E->getLocation());
    followWrap(E->getDecl(), E->getQualifierLoc(), E->getLocation());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) override {
    notNamespace(E->getMemberDecl(), E->getMemberLoc());
    return true;
  }
  bool VisitNamedDecl(NamedDecl *D) override {
    if (!isa<NamespaceBaseDecl>(D))
      notNamespace(D, D->getLocation());
    return true;
  }
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) override;
  bool VisitUsingDecl(UsingDecl *D) override;
  bool VisitTagTypeLoc(TagTypeLoc TL) override {
    if (!TL.isDefinition())
      followWrap(TL.getDecl(), TL.getQualifierLoc(), TL.getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) override {
    followWrap(TL.getDecl(), TL.getQualifierLoc(), TL.getNameLoc());
    return true;
  }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) override {
    followWrap(TL.getTypePtr()->getTemplateName().getAsTemplateDecl(), TL.getQualifierLoc(),
               TL.getTemplateNameLoc());
    return true;
  }

private:
  using QualifierKey = std::pair<const void *, const void *>;

  static QualifierKey keyOf(NestedNameSpecifierLoc NNS) {
    return {NNS.getNestedNameSpecifier().getAsVoidPointer(), NNS.getOpaqueData()};
  }
  void handleDeclQualifier(Decl *D);
  std::string newContextPath(const DeclContext *DC) const;
  void processChain(const Chain &C, const DeclContext *Context);
  void respellChain(const Chain &C, const std::vector<std::string> &To);
  bool isShadowedByWrap(const std::string &Name) const;
  void respellFromGlobal(const Chain &C, const std::vector<std::string> &To);
  void renameDefinition(const NamespaceDecl *D);
  void updateClosingComment(const NamespaceDecl *D, const std::string &Old, const std::string &New);
  void handleExplicitInstantiation(const NamedDecl *D, unsigned EnclosingClasses,
                                   SourceLocation PointOfInstantiation);
  bool wrapInstantiation(const NamedDecl *D, const SpelledToken &Name,
                         SourceLocation PointOfInstantiation);
  void followWrap(const NamedDecl *Target, NestedNameSpecifierLoc Qualifier,
                  SourceLocation NameLoc);
  void respell(const std::vector<SpelledToken> &Tokens, const std::vector<std::string> &Old,
               const std::vector<std::string> &New, SourceLocation IssueLoc);
  bool isPorted(const NamespaceDecl *NS);
  bool checkEditable(const std::vector<SpelledToken> &Tokens, size_t First, size_t Last,
                     SourceLocation IssueLoc, llvm::StringRef What = "a namespace name");
  /// A declaration, or a use of one, that only shares its name with a
  /// renamed namespace: the leftover scan must not report it.
  void notNamespace(const NamedDecl *D, SourceLocation NameLoc) {
    if (D && D->getIdentifier() && llvm::is_contained(Vanishing, D->getName()))
      Locs.markHandled(Locs.spelledToken(NameLoc));
  }
  void addIssue(SourceLocation Loc, std::string Message) {
    analyze::Location Where = Locs.issueLocation(Loc);
    std::optional<unsigned> Offset;
    if (Locs.expansionFile(Loc))
      Offset = Locs.expansionOffset(Loc);
    Locs.record().addIssue(issue_id::RenameUnsupported, Where.File, Where.Line, std::move(Message),
                           /*Blocking=*/true, Offset);
  }

  ParseLocations &Locs;
  WrapPolicy &Wrap;
  const RenameMap &Renames;
  std::vector<std::string> Vanishing; ///< RenameMap::vanishingNames().
  std::vector<const DeclContext *> Contexts;
  bool TopLevelWrapped = false;
  std::set<QualifierKey> HandledQualifiers;
  llvm::DenseMap<const NamespaceDecl *, bool> PortedNamespaces;
};

/// Whether any block of `NS` is written in a ported file. A rename is for
/// ported namespaces: one only a submodule or an external header opens
/// keeps its name, or references to its members would break.
bool NamespaceRenamer::isPorted(const NamespaceDecl *NS) {
  NS = NS->getCanonicalDecl();
  auto [It, Inserted] = PortedNamespaces.try_emplace(NS, false);
  if (Inserted)
    It->second = llvm::any_of(NS->redecls(), [&](const NamespaceDecl *Block) {
      return Locs.expansionFile(Block->getLocation()) != nullptr;
    });
  return It->second;
}

bool NamespaceRenamer::TraverseDecl(Decl *D) {
  if (!D)
    return true;
  const DeclContext *Lexical = D->getLexicalDeclContext();
  bool AtFileScope = Lexical && isa<TranslationUnitDecl>(Lexical);
  // Declarations of headers outside the port hold nothing to rewrite;
  // skipping them keeps the traversal to the ported code.
  if (Lexical && Lexical->getRedeclContext()->isFileContext() &&
      !Locs.expansionFile(D->getLocation()) && !Locs.expansionFile(D->getBeginLoc()) &&
      !Locs.expansionFile(D->getEndLoc()))
    return true;
  bool SavedWrapped = TopLevelWrapped;
  if (AtFileScope)
    TopLevelWrapped = Wrap.isWrappedTopLevel(D);
  handleDeclQualifier(D);
  auto *DC = dyn_cast<DeclContext>(D);
  if (DC)
    Contexts.push_back(DC);
  bool Result = Base::TraverseDecl(D);
  if (DC)
    Contexts.pop_back();
  if (AtFileScope)
    TopLevelWrapped = SavedWrapped;
  return Result;
}

/// `void a::f() {}`, `template <> struct a::X<int>`: the qualifier is looked
/// up where the declaration is written, not inside the declared entity.
void NamespaceRenamer::handleDeclQualifier(Decl *D) {
  NestedNameSpecifierLoc Qualifier;
  if (const auto *DD = dyn_cast<DeclaratorDecl>(D))
    Qualifier = DD->getQualifierLoc();
  else if (const auto *TD = dyn_cast<TagDecl>(D))
    Qualifier = TD->getQualifierLoc();
  if (Qualifier && Qualifier.getNestedNameSpecifier().getKind() == NestedNameSpecifier::Kind::Type)
    Qualifier = Qualifier.castAsTypeLoc().getPrefix();
  if (!Qualifier ||
      Qualifier.getNestedNameSpecifier().getKind() != NestedNameSpecifier::Kind::Namespace)
    return;
  processChain(chainOf(Qualifier), Contexts.back());
  HandledQualifiers.insert(keyOf(Qualifier));
}

bool NamespaceRenamer::TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
  if (!NNS || NNS.getNestedNameSpecifier().getKind() != NestedNameSpecifier::Kind::Namespace)
    return Base::TraverseNestedNameSpecifierLoc(NNS);
  if (!HandledQualifiers.count(keyOf(NNS)))
    processChain(chainOf(NNS), Contexts.back());
  return true;
}

bool NamespaceRenamer::TraverseUsingDirectiveDecl(UsingDirectiveDecl *D) {
  // `using namespace a::b;`: `b` is no part of the qualifier.
  const auto *Nominated = dyn_cast_or_null<NamespaceBaseDecl>(D->getNominatedNamespaceAsWritten());
  if (!Nominated)
    return true;
  Chain C = chainOf(D->getQualifierLoc());
  C.Parts.push_back({Nominated, D->getIdentLocation()});
  processChain(C, D->getDeclContext());
  return true;
}

bool NamespaceRenamer::TraverseNamespaceAliasDecl(NamespaceAliasDecl *D) {
  Chain C = chainOf(D->getQualifierLoc());
  C.Parts.push_back({D->getAliasedNamespace(), D->getTargetNameLoc()});
  processChain(C, D->getDeclContext());
  return true;
}

/// Where code in `DC` will stand after the rewrite: its renamed namespace,
/// or the wrap namespace for wrapped file-scope code.
std::string NamespaceRenamer::newContextPath(const DeclContext *DC) const {
  for (; DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (!NS->isAnonymousNamespace())
        return Renames.apply(namespacePath(NS));
      continue;
    }
    if (isa<TranslationUnitDecl>(DC))
      return TopLevelWrapped ? Wrap.target() : std::string();
  }
  return {};
}

void NamespaceRenamer::processChain(const Chain &C, const DeclContext *Context) {
  if (C.Parts.empty())
    return;
  bool Changed = Renames.apply(namespacePath(Context)) != namespacePath(Context);
  std::vector<std::string> Spelled;
  for (const ChainPart &Part : C.Parts) {
    Locs.markHandled(Locs.spelledToken(Part.NameLoc));
    Spelled.push_back(Part.Decl->getName().str());
    // A namespace changes with its own path, an alias with the namespace
    // declaring it.
    std::string Path = declaredPath(Part.Decl);
    std::string Renamed = isa<NamespaceDecl>(Part.Decl) ? Path : parentPath(Path);
    Changed |= Renames.apply(Renamed) != Renamed;
  }
  const NamespaceBaseDecl *Last = C.Parts.back().Decl;
  const auto *Target = dyn_cast<NamespaceDecl>(Last);
  if (const auto *Alias = dyn_cast<NamespaceAliasDecl>(Last))
    Target = Alias->getNamespace();
  if (Target && !isPorted(Target))
    return;
  std::string OldFull = declaredPath(Last);
  std::string NewFull =
      isa<NamespaceDecl>(Last)
          ? Renames.apply(OldFull)
          : appendPath(Renames.apply(namespacePath(Last->getDeclContext())), Last->getName());
  bool Full = C.GlobalLoc.isValid() || parentPath(declaredPath(C.Parts.front().Decl)).empty();
  if (Changed && !Full) {
    // A relative spelling survives when it is found the same way: its
    // enclosing part still encloses the code that names it.
    std::optional<std::string> OldPrefix = stripTail(OldFull, Spelled);
    std::optional<std::string> NewPrefix = stripTail(NewFull, Spelled);
    Changed = !OldPrefix || !NewPrefix || !enclosesPath(*OldPrefix, namespacePath(Context)) ||
              !enclosesPath(*NewPrefix, newContextPath(Context));
  }
  std::vector<std::string> Final = Changed ? splitPath(NewFull) : Spelled;
  if (Full && C.GlobalLoc.isInvalid() && isShadowedByWrap(Final.front())) {
    respellFromGlobal(C, Final);
    return;
  }
  if (Changed && Final != Spelled)
    respellChain(C, Final);
}

/// Whether a top-level namespace `Name`, spelled without `::` in code the
/// wrap moves into its namespace, would be found as a part of that
/// namespace instead: inside `cache_dit::svdq`, `svdq::f` names
/// `cache_dit::svdq::f` (while `cache_dit::f` still names the top level).
bool NamespaceRenamer::isShadowedByWrap(const std::string &Name) const {
  if (!Wrap.enabled())
    return false;
  std::vector<std::string> Parts = splitPath(Wrap.target());
  return llvm::is_contained(llvm::drop_begin(Parts), Name);
}

/// `svdq::f` -> `::svdq::f`, with the chain's renamed parts.
void NamespaceRenamer::respellFromGlobal(const Chain &C, const std::vector<std::string> &To) {
  std::vector<SpelledToken> Tokens;
  for (const ChainPart &Part : C.Parts)
    Tokens.push_back(Locs.spelledToken(Part.NameLoc));
  SourceLocation IssueLoc = C.Parts.front().NameLoc;
  if (!checkEditable(Tokens, 0, Tokens.size() - 1, IssueLoc))
    return;
  FileEdit Edit;
  Edit.Why = "namespace rename";
  Edit.Offset = Tokens.front().Offset;
  Edit.Length = Tokens.back().end() - Edit.Offset;
  Edit.Text = "::" + joinPath(To);
  Locs.addEdit(*Tokens.front().File, std::move(Edit));
}

void NamespaceRenamer::respellChain(const Chain &C, const std::vector<std::string> &To) {
  std::vector<SpelledToken> Tokens;
  std::vector<std::string> Old;
  for (const ChainPart &Part : C.Parts) {
    Tokens.push_back(Locs.spelledToken(Part.NameLoc));
    Old.push_back(Part.Decl->getName().str());
  }
  respell(Tokens, Old, To, C.Parts.front().NameLoc);
}

bool NamespaceRenamer::VisitNamespaceDecl(NamespaceDecl *D) {
  if (!D->isNested() && !D->isAnonymousNamespace())
    renameDefinition(D);
  return true;
}

/// `namespace a::b {` (one header, several NamespaceDecls): the written
/// names become the renamed path relative to the renamed parent.
void NamespaceRenamer::renameDefinition(const NamespaceDecl *D) {
  std::vector<const NamespaceDecl *> Opened = {D};
  while (const NamespaceDecl *Next = nestedChild(Opened.back()))
    Opened.push_back(Next);
  std::vector<SpelledToken> Tokens;
  std::vector<std::string> Old;
  for (const NamespaceDecl *NS : Opened) {
    Tokens.push_back(Locs.spelledToken(NS->getLocation()));
    Old.push_back(NS->getName().str());
  }
  // A namespace reopened outside the port is not ours to rename; one whose
  // name is pasted is, and respell() reports it.
  if (!Tokens.front().File && !Tokens.front().Pasted)
    return;
  for (const SpelledToken &Tok : Tokens)
    Locs.markHandled(Tok);
  std::string OldFull = namespacePath(Opened.back());
  std::string Parent = namespacePath(D->getDeclContext());
  std::string NewFull = Renames.apply(OldFull), NewParent = Renames.apply(Parent);
  if (NewFull == OldFull && NewParent == Parent)
    return;
  if (NewFull == NewParent || !enclosesPath(NewParent, NewFull)) {
    addIssue(D->getLocation(), "namespace `" + OldFull + "` is opened inside `" + Parent +
                                   "`, which becomes `" + NewParent + "`: its rename to `" +
                                   NewFull + "` cannot be written here; open it as `namespace " +
                                   OldFull + " {` upstream or rename `" + Parent + "` too");
    return;
  }
  std::vector<std::string> New = splitPath(
      NewParent.empty() ? NewFull : llvm::StringRef(NewFull).substr(NewParent.size() + 2));
  respell(Tokens, Old, New, D->getLocation());
  updateClosingComment(D, joinPath(Old), joinPath(New));
}

/// `} // namespace old` follows the header it closes.
void NamespaceRenamer::updateClosingComment(const NamespaceDecl *D, const std::string &Old,
                                            const std::string &New) {
  SpelledToken Brace = Locs.spelledToken(D->getRBraceLoc());
  if (!Brace.editable() || Brace.InMacro || Old == New)
    return;
  const SourceLayout &Layout = Brace.File->Layout;
  std::optional<size_t> Index = Layout.tokenAt(Brace.Offset);
  if (!Index || *Index + 1 >= Layout.tokens().size())
    return;
  const RawToken &Comment = Layout.tokens()[*Index + 1];
  llvm::StringRef Text = Layout.spelling(Comment);
  if (Comment.Kind != tok::comment || !Text.starts_with("//") ||
      Layout.lineOf(Comment.Offset) != Layout.lineOf(Brace.Offset))
    return;
  llvm::StringRef Body = Text.drop_front(2).trim();
  if (Body.consume_front("namespace"))
    Body = Body.ltrim();
  if (Body != Old)
    return;
  unsigned At = Comment.Offset + static_cast<unsigned>(Text.rfind(Old));
  Locs.addEdit(*Brace.File, {At, static_cast<unsigned>(Old.size()), New, EditOrder::Code,
                             "namespace closing comment"});
}

static bool isExplicitInstantiation(TemplateSpecializationKind Kind) {
  return Kind == TSK_ExplicitInstantiationDefinition ||
         Kind == TSK_ExplicitInstantiationDeclaration;
}

bool NamespaceRenamer::VisitFunctionTemplateDecl(FunctionTemplateDecl *D) {
  for (const FunctionDecl *Spec : D->specializations())
    if (isExplicitInstantiation(Spec->getTemplateSpecializationKind()))
      handleExplicitInstantiation(D, 0, Spec->getPointOfInstantiation());
  return true;
}

/// `template void a::X<int>::run(int);` instantiates one member of a class
/// whose specialization is otherwise implicit: like a function template's
/// explicit instantiation, only the member's name is in the AST, behind the
/// class and its arguments. (A whole-class `template struct a::X<int>;` keeps
/// its qualifier and is rewritten like any other reference.)
bool NamespaceRenamer::VisitClassTemplateDecl(ClassTemplateDecl *D) {
  for (const ClassTemplateSpecializationDecl *Spec : D->specializations()) {
    if (Spec->getSpecializationKind() != TSK_ImplicitInstantiation)
      continue;
    for (const Decl *Member : Spec->decls()) {
      // `template void a::X<int>::run<4>(int);`: a member template's.
      if (const auto *Template = dyn_cast<FunctionTemplateDecl>(Member)) {
        for (const FunctionDecl *Inst : Template->specializations())
          if (isExplicitInstantiation(Inst->getTemplateSpecializationKind()))
            handleExplicitInstantiation(D, 1, Inst->getPointOfInstantiation());
        continue;
      }
      TemplateSpecializationKind Kind = TSK_Undeclared;
      SourceLocation PointOfInstantiation;
      if (const auto *FD = dyn_cast<FunctionDecl>(Member)) {
        Kind = FD->getTemplateSpecializationKind();
        PointOfInstantiation = FD->getPointOfInstantiation();
      } else if (const auto *VD = dyn_cast<VarDecl>(Member)) {
        Kind = VD->getTemplateSpecializationKind();
        PointOfInstantiation = VD->getPointOfInstantiation();
      }
      if (isExplicitInstantiation(Kind))
        handleExplicitInstantiation(D, 1, PointOfInstantiation);
    }
  }
  return true;
}

/// The index of a class name's token, scanning back from the token at
/// `Name` over `Class<args...> ::` (arguments balanced), or none when the
/// tokens before `Name` are not such a qualifier.
static std::optional<size_t> beforeClassQualifier(const SourceLayout &Layout, size_t Name) {
  const auto &Tokens = Layout.tokens();
  if (Name < 2 || Tokens[Name - 1].Kind != tok::coloncolon)
    return std::nullopt;
  size_t I = Name - 2;
  if (Tokens[I].Kind == tok::greater || Tokens[I].Kind == tok::greatergreater) {
    int Depth = 0;
    for (;; --I) {
      Depth += Tokens[I].Kind == tok::greater ? 1 : Tokens[I].Kind == tok::greatergreater ? 2 : 0;
      Depth -= Tokens[I].Kind == tok::less ? 1 : 0;
      if (Depth == 0 || I == 0)
        break;
    }
    if (Depth != 0 || I == 0)
      return std::nullopt;
    --I;
  }
  if (Tokens[I].Kind != tok::raw_identifier && Tokens[I].Kind != tok::identifier)
    return std::nullopt;
  return I;
}

/// An explicit instantiation of a global template that moves into the wrap
/// moves with it, the whole statement: there its template and the wrapped
/// types among its arguments are found as upstream found them (Clang keeps
/// no record of the types it spells, so they could not be requalified).
/// Any other instantiation ends a run of wrapped declarations. True when
/// the statement is wrapped.
bool NamespaceRenamer::wrapInstantiation(const NamedDecl *D, const SpelledToken &Name,
                                         SourceLocation PointOfInstantiation) {
  const PortedFile *At = Locs.expansionFile(PointOfInstantiation);
  if (!At || !Wrap.enabled())
    return false;
  if (D->getDeclContext()->isTranslationUnit() && Wrap.isWrappedEntity(D)) {
    std::optional<std::pair<unsigned, unsigned>> Statement;
    if (PointOfInstantiation.isMacroID())
      Statement = invocationStatement(At->Layout, Locs.expansionSpan(PointOfInstantiation));
    else if (Name.editable() && Name.File == At)
      Statement = instantiationStatement(At->Layout, Name.Offset);
    if (Statement) {
      Locs.observe(*At).Items.push_back({TopLevelItem::Wrap, Statement->first, Statement->second});
      return true;
    }
  }
  unsigned Offset = Locs.expansionOffset(PointOfInstantiation);
  Locs.observe(*At).Items.push_back({TopLevelItem::Barrier, Offset, Offset});
  return false;
}

/// `template void a::f<int>(int);` leaves no declaration with a qualifier in
/// the AST, only the point of instantiation (the name): the qualifier is
/// read back from the tokens before it, matched against the template's
/// namespace.
void NamespaceRenamer::handleExplicitInstantiation(const NamedDecl *D, unsigned EnclosingClasses,
                                                   SourceLocation PointOfInstantiation) {
  const DeclContext *DC = D->getDeclContext();
  const auto *NS = dyn_cast<NamespaceDecl>(DC);
  if (!DC->isFileContext() || (NS && !isPorted(NS)))
    return;
  SpelledToken Name = Locs.spelledToken(PointOfInstantiation);
  if (wrapInstantiation(D, Name, PointOfInstantiation))
    return;
  if (!Name.editable())
    return;
  const SourceLayout &Layout = Name.File->Layout;
  std::optional<size_t> Index = Layout.tokenAt(Name.Offset);
  if (!Index)
    return;
  std::vector<std::string> Path = splitPath(namespacePath(DC));
  std::vector<SpelledToken> Tokens;
  std::vector<std::string> Spelled;
  size_t I = *Index;
  auto IsColons = [&](size_t At) { return Layout.tokens()[At].Kind == tok::coloncolon; };
  for (unsigned Class = 0; Class < EnclosingClasses; ++Class)
    if (std::optional<size_t> Before = beforeClassQualifier(Layout, I))
      I = *Before;
    else
      return;
  while (I >= 2 && IsColons(I - 1) && Spelled.size() < Path.size() &&
         Layout.spelling(Layout.tokens()[I - 2]) == Path[Path.size() - 1 - Spelled.size()]) {
    const RawToken &Tok = Layout.tokens()[I - 2];
    Tokens.insert(Tokens.begin(), {Name.File, Tok.Offset, Tok.Length});
    Spelled.insert(Spelled.begin(), Layout.spelling(Tok).str());
    I -= 2;
  }
  bool Global = I >= 1 && IsColons(I - 1);
  for (const SpelledToken &Tok : Tokens)
    Locs.markHandled(Tok);
  if (Path.empty())
    return;
  std::string OldFull = joinPath(Path), NewFull = Renames.apply(OldFull);
  if (Spelled.empty() || NewFull == OldFull)
    return;
  if (!Global && Spelled.size() < Path.size()) {
    std::string Prefix = *stripTail(OldFull, Spelled);
    if (appendPath(Renames.apply(Prefix), joinPath(Spelled)) == NewFull)
      return;
  }
  respell(Tokens, Spelled, splitPath(NewFull), PointOfInstantiation);
}

bool NamespaceRenamer::VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
  if (E->getNumDecls() == 0)
    return true;
  for (const NamedDecl *D : E->decls())
    if (!Wrap.isWrappedEntity(D->getUnderlyingDecl()))
      return true;
  followWrap((*E->decls_begin())->getUnderlyingDecl(), E->getQualifierLoc(), E->getNameLoc());
  return true;
}

bool NamespaceRenamer::VisitUsingDecl(UsingDecl *D) {
  for (const UsingShadowDecl *Shadow : D->shadows())
    if (Wrap.isWrappedEntity(Shadow->getTargetDecl())) {
      followWrap(Shadow->getTargetDecl(), D->getQualifierLoc(), D->getLocation());
      break;
    }
  return true;
}

/// A reference to a global entity that moves into the wrap namespace:
/// `::f` becomes `::X::f`, and an unqualified `f` from code that will not be
/// inside X (main, `extern "C"`, other namespaces) becomes `X::f`.
void NamespaceRenamer::followWrap(const NamedDecl *Target, NestedNameSpecifierLoc Qualifier,
                                  SourceLocation NameLoc) {
  if (!Wrap.enabled() || !Target || !Target->getDeclName().isIdentifier() || NameLoc.isInvalid() ||
      !Locs.expansionFile(NameLoc) || !Wrap.isWrappedEntity(Target))
    return;
  SpelledToken Anchor;
  unsigned At = 0;
  if (Qualifier) {
    if (Qualifier.getNestedNameSpecifier().getKind() != NestedNameSpecifier::Kind::Global)
      return;
    Anchor = Locs.spelledToken(Qualifier.getLocalBeginLoc());
    At = Anchor.end();
  } else {
    if (enclosesPath(Wrap.target(), newContextPath(Contexts.back())))
      return;
    Anchor = Locs.spelledToken(NameLoc);
    At = Anchor.Offset;
  }
  if (!checkEditable({Anchor}, 0, 0, NameLoc, "the name of a declaration moved into the wrap"))
    return;
  Locs.addEdit(*Anchor.File, {At, 0, Wrap.target() + "::", EditOrder::Code, "global wrap"});
}

/// Rewrites the written chain `Old` (one token per name, `::` between) to
/// `New`, editing only the components that differ.
void NamespaceRenamer::respell(const std::vector<SpelledToken> &Tokens,
                               const std::vector<std::string> &Old,
                               const std::vector<std::string> &New, SourceLocation IssueLoc) {
  if (Old == New)
    return;
  size_t Prefix = 0, Suffix = 0;
  while (Prefix < Old.size() && Prefix < New.size() && Old[Prefix] == New[Prefix])
    ++Prefix;
  while (Suffix + Prefix < Old.size() && Suffix + Prefix < New.size() &&
         Old[Old.size() - 1 - Suffix] == New[New.size() - 1 - Suffix])
    ++Suffix;
  if (New.empty()) {
    addIssue(IssueLoc, "`" + joinPath(Old) + "` would move to the global namespace: not supported");
    return;
  }
  std::vector<std::string> Middle(New.begin() + Prefix, New.end() - Suffix);
  size_t OldEnd = Old.size() - Suffix; // One past the last old part to edit.
  std::string Text = joinPath(Middle);
  FileEdit Edit;
  Edit.Why = "namespace rename";
  if (Prefix < OldEnd && !Middle.empty()) {
    if (!checkEditable(Tokens, Prefix, OldEnd - 1, IssueLoc))
      return;
    Edit.Offset = Tokens[Prefix].Offset;
    Edit.Length = Tokens[OldEnd - 1].end() - Edit.Offset;
    Edit.Text = Text;
  } else if (Prefix == OldEnd) { // Insertion: `a::c` -> `a::b::c`.
    size_t Anchor = Prefix < Old.size() ? Prefix : Prefix - 1;
    if (!checkEditable(Tokens, Anchor, Anchor, IssueLoc))
      return;
    Edit.Offset = Prefix < Old.size() ? Tokens[Anchor].Offset : Tokens[Anchor].end();
    Edit.Text = Prefix < Old.size() ? Text + "::" : "::" + Text;
  } else { // Deletion: `a::b::c` -> `a::c`.
    size_t First = Suffix > 0 ? Prefix : Prefix - 1;
    size_t Last = Suffix > 0 ? OldEnd : OldEnd - 1;
    if (!checkEditable(Tokens, First, Last, IssueLoc))
      return;
    Edit.Offset = Suffix > 0 ? Tokens[Prefix].Offset : Tokens[Prefix - 1].end();
    Edit.Length = (Suffix > 0 ? Tokens[OldEnd].Offset : Tokens[OldEnd - 1].end()) - Edit.Offset;
  }
  Locs.addEdit(*Tokens[Prefix < Tokens.size() ? Prefix : Tokens.size() - 1].File, std::move(Edit));
}

/// Whether tokens `First`..`Last` can be edited as one range: written in one
/// ported file, in order, with only `::` between them.
bool NamespaceRenamer::checkEditable(const std::vector<SpelledToken> &Tokens, size_t First,
                                     size_t Last, SourceLocation IssueLoc, llvm::StringRef What) {
  for (size_t I = First; I <= Last; ++I) {
    if (Tokens[I].Pasted) {
      addIssue(IssueLoc, What.str() +
                             " here is made by token pasting (`##`) in a macro and cannot be "
                             "rewritten");
      return false;
    }
    if (!Tokens[I].File) {
      addIssue(IssueLoc, What.str() +
                             " here is written outside the ported files (in a macro defined "
                             "elsewhere) and cannot be rewritten");
      return false;
    }
  }
  for (size_t I = First; I < Last; ++I) {
    const SpelledToken &A = Tokens[I], &B = Tokens[I + 1];
    std::optional<size_t> IndexA = A.File->Layout.tokenAt(A.Offset);
    std::optional<size_t> IndexB = B.File->Layout.tokenAt(B.Offset);
    if (A.File != B.File || !IndexA || !IndexB || *IndexB != *IndexA + 2 ||
        A.File->Layout.tokens()[*IndexA + 1].Kind != tok::coloncolon) {
      addIssue(IssueLoc, "a namespace chain here is written across a macro boundary and cannot "
                         "be rewritten");
      return false;
    }
  }
  return true;
}

} // namespace

void renameNamespaces(ASTContext &AST, llvm::ArrayRef<Decl *> TopLevel, ParseLocations &Locs,
                      WrapPolicy &Wrap) {
  if (Locs.context().renames().empty() && !Wrap.enabled())
    return;
  NamespaceRenamer Renamer(AST, Locs, Wrap);
  for (Decl *D : TopLevel)
    Renamer.TraverseDecl(D);
}

} // namespace opmig::migrate
