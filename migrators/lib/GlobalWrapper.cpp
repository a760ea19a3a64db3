#include "GlobalWrapper.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

#include <algorithm>

namespace opmig::migrate {

using namespace clang;

namespace {

/// The declaration that stands for an entity at file scope: the template
/// for its specializations and pattern, the enum for an unscoped enumerator.
const Decl *ownerOf(const NamedDecl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate())
      return Primary;
    if (const FunctionTemplateDecl *Described = FD->getDescribedFunctionTemplate())
      return Described;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D))
    return Spec->getSpecializedTemplate();
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const ClassTemplateDecl *Described = RD->getDescribedClassTemplate())
      return Described;
  if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(D))
    if (const auto *Enum = dyn_cast<EnumDecl>(Enumerator->getDeclContext());
        Enum && !Enum->isScoped())
      return Enum;
  return D;
}

bool isFileScope(const Decl *D) {
  return D->getLexicalDeclContext() && isa<TranslationUnitDecl>(D->getLexicalDeclContext());
}

} // namespace

/// An operator is called by its syntax, which no requalification reaches:
/// `a * b` finds it through the namespaces of its operands or the scopes
/// around the call. One whose operands are all types from elsewhere (the
/// global `float2`) stays global, where those lookups found it upstream; one
/// with an operand of a wrapped type moves with that type. A literal operator
/// is found by unqualified lookup only, and stays global too.
void WrapPolicy::noteInstantiation(TemplateSpecializationKind Kind, SourceLocation Point) {
  if (Kind == TSK_ExplicitInstantiationDefinition || Kind == TSK_ExplicitInstantiationDeclaration)
    if (const PortedFile *File = Locs.expansionFile(Point))
      KeptGlobal.insert(File);
}

void WrapPolicy::keepInstantiatingFilesGlobal(llvm::ArrayRef<Decl *> TopLevel) {
  if (!enabled())
    return;
  std::vector<const Decl *> Pending(TopLevel.begin(), TopLevel.end());
  while (!Pending.empty()) {
    const Decl *D = Pending.back();
    Pending.pop_back();
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
      Pending.insert(Pending.end(), Namespace->decls_begin(), Namespace->decls_end());
    const auto *Class = dyn_cast<ClassTemplateDecl>(D);
    // A global class template of a ported file moves, and its member's
    // instantiations move with it (NamespaceRenamer): their file can move.
    if (!Class ||
        (Class->getDeclContext()->isTranslationUnit() && Locs.expansionFile(Class->getLocation())))
      continue;
    for (const ClassTemplateSpecializationDecl *Spec : Class->specializations()) {
      if (Spec->getSpecializationKind() != TSK_ImplicitInstantiation)
        continue;
      for (const Decl *Member : Spec->decls())
        if (const auto *FD = dyn_cast<FunctionDecl>(Member))
          noteInstantiation(FD->getTemplateSpecializationKind(), FD->getPointOfInstantiation());
        else if (const auto *VD = dyn_cast<VarDecl>(Member))
          noteInstantiation(VD->getTemplateSpecializationKind(), VD->getPointOfInstantiation());
    }
  }
}

bool WrapPolicy::staysWithItsOperands(const FunctionDecl *FD) {
  if (FD->getLiteralIdentifier())
    return true;
  if (!FD->isOverloadedOperator())
    return false;
  return llvm::none_of(FD->parameters(), [&](const ParmVarDecl *Param) {
    QualType Type = Param->getType().getNonReferenceType();
    while (Type->isPointerType())
      Type = Type->getPointeeType();
    const TagDecl *Tag = Type->getAsTagDecl();
    return Tag && isWrappedEntity(Tag);
  });
}

bool WrapPolicy::isWrappedTopLevel(const Decl *D) {
  if (!enabled() || D->isImplicit() || !isFileScope(D))
    return false;
  // Namespace blocks, aliases and using-directives keep applying where they
  // are; only declarations of names move.
  if (!isa<NamedDecl>(D) && !isa<StaticAssertDecl>(D))
    return false;
  if (isa<NamespaceDecl, NamespaceAliasDecl, UsingDirectiveDecl, UsingDecl>(D))
    return false;
  // The template parameters of an out-of-line member definition
  // (`template <int Block> void X<Block>::run()`) sit in the translation
  // unit's context, but are names of that definition, not of the file.
  if (isa<TemplateTypeParmDecl, NonTypeTemplateParmDecl, TemplateTemplateParmDecl, ParmVarDecl>(D))
    return false;
  // `void ns::f() {}` must stay where `ns` encloses it.
  if (!D->getDeclContext()->getEnclosingNamespaceContext()->isTranslationUnit())
    return false;
  if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->isMain())
    return false;
  if (const FunctionDecl *Operator = D->getAsFunction(); Operator && staysWithItsOperands(Operator))
    return false;
  const PortedFile *File = Locs.expansionFile(D->getLocation());
  return File && !KeptGlobal.contains(File);
}

bool WrapPolicy::isWrappedEntity(const NamedDecl *D) {
  if (!enabled() || !D)
    return false;
  const Decl *Owner = ownerOf(D)->getCanonicalDecl();
  auto [It, Inserted] = Entities.try_emplace(Owner, false);
  if (!Inserted)
    return It->second;
  bool Wrapped = false;
  for (const Decl *Redecl : Owner->redecls())
    if (isWrappedTopLevel(Redecl)) {
      Wrapped = true;
      break;
    }
  Entities[Owner] = Wrapped;
  return Wrapped;
}

/// Sema hands implicit instantiations to the consumer as top-level
/// declarations too (`dispatchBool<lambda>` instantiated for a call in a
/// wrapper): they are no text of the file, and must not split its wrap.
static bool isImplicitInstantiation(const Decl *D) {
  const auto *FD = dyn_cast<FunctionDecl>(D);
  return FD && FD->getTemplateSpecializationKind() == TSK_ImplicitInstantiation;
}

void collectTopLevelItems(llvm::ArrayRef<Decl *> TopLevel, ParseLocations &Locs,
                          WrapPolicy &Policy) {
  if (!Policy.enabled())
    return;
  for (const Decl *D : TopLevel) {
    if (D->isImplicit() || isImplicitInstantiation(D))
      continue;
    ParseLocations::FileRange Range = Locs.declRange(D);
    if (!Range.File)
      continue;
    TopLevelItem Item;
    Item.Role = Policy.isWrappedTopLevel(D) ? TopLevelItem::Wrap : TopLevelItem::Barrier;
    Item.Begin = Range.Begin;
    Item.End = Range.End;
    Locs.observe(*Range.File).Items.push_back(Item);
  }
}

std::optional<std::pair<unsigned, unsigned>> instantiationStatement(const SourceLayout &Layout,
                                                                    unsigned NameOffset) {
  std::optional<size_t> Name = Layout.tokenAt(NameOffset);
  if (!Name)
    return std::nullopt;
  const auto &Tokens = Layout.tokens();
  auto Spelled = [&](size_t I, llvm::StringRef Text) { return Layout.spelling(Tokens[I]) == Text; };
  // Back to the `template` that starts the statement: not one after `::`,
  // `.` or `->` (`X::template run<4>`), and not inside angle brackets.
  std::optional<size_t> Begin;
  for (size_t I = *Name; I-- > 0;) {
    if (Tokens[I].Kind == tok::semi || Tokens[I].Kind == tok::r_brace ||
        Tokens[I].Kind == tok::l_brace)
      break;
    bool AfterQualifier =
        I > 0 && (Tokens[I - 1].Kind == tok::coloncolon || Tokens[I - 1].Kind == tok::period ||
                  Tokens[I - 1].Kind == tok::arrow);
    if (Spelled(I, "template") && !AfterQualifier)
      Begin = I > 0 && Spelled(I - 1, "extern") ? I - 1 : I;
  }
  if (!Begin)
    return std::nullopt;
  for (size_t I = *Name; I < Tokens.size(); ++I) {
    if (Tokens[I].Kind == tok::l_brace || Tokens[I].Kind == tok::r_brace)
      return std::nullopt;
    if (Tokens[I].Kind == tok::semi)
      return std::make_pair(Tokens[*Begin].Offset, Tokens[I].end());
  }
  return std::nullopt;
}

std::pair<unsigned, unsigned> invocationStatement(const SourceLayout &Layout,
                                                  std::pair<unsigned, unsigned> Span) {
  std::optional<size_t> Next = Layout.codeTokenFrom(Span.second);
  if (Next && Layout.tokens()[*Next].Kind == tok::semi)
    Span.second = Layout.tokens()[*Next].end();
  return Span;
}

namespace {

/// Declarations sorted, identical or overlapping ones merged (a barrier
/// wins), those inside removed ranges dropped.
std::vector<TopLevelItem>
mergeDeclarations(const std::vector<TopLevelItem> &Items,
                  const std::vector<std::pair<unsigned, unsigned>> &Removed) {
  std::vector<TopLevelItem> Sorted;
  for (const TopLevelItem &Item : Items) {
    bool IsRemoved = llvm::any_of(Removed, [&](const std::pair<unsigned, unsigned> &R) {
      return R.first <= Item.Begin && Item.End <= R.second;
    });
    if (Item.End > Item.Begin && !IsRemoved)
      Sorted.push_back(Item);
  }
  std::sort(Sorted.begin(), Sorted.end(), [](const TopLevelItem &A, const TopLevelItem &B) {
    return std::tie(A.Begin, A.End) < std::tie(B.Begin, B.End);
  });
  std::vector<TopLevelItem> Merged;
  for (const TopLevelItem &Item : Sorted) {
    if (!Merged.empty() && Item.Begin < Merged.back().End) {
      Merged.back().End = std::max(Merged.back().End, Item.End);
      if (Item.Role == TopLevelItem::Barrier)
        Merged.back().Role = TopLevelItem::Barrier;
      continue;
    }
    Merged.push_back(Item);
  }
  return Merged;
}

} // namespace

std::vector<FileEdit> wrapEdits(const PortedFile &File, const std::vector<TopLevelItem> &Items,
                                const std::vector<std::pair<unsigned, unsigned>> &Removed,
                                const std::string &Namespace) {
  std::vector<TopLevelItem> Merged = mergeDeclarations(Items, Removed);
  // Directives between declarations end a run: a wrap opened before `#if`
  // and closed inside its branch would not survive the other branch. So do
  // explicit instantiations, which are no declarations of their own.
  std::vector<TopLevelItem> Barriers;
  for (const TopLevelItem &Item : Items)
    if (Item.Begin == Item.End)
      Barriers.push_back(Item);
  const SourceLayout &Layout = File.Layout;
  for (const Directive &D : Layout.directives())
    if (D.isInclude() || D.isConditional())
      Barriers.push_back({TopLevelItem::Barrier, D.Begin, D.End});
  size_t Declarations = Merged.size();
  for (const TopLevelItem &Barrier : Barriers) {
    bool Inside =
        std::any_of(Merged.begin(), Merged.begin() + Declarations, [&](const TopLevelItem &Item) {
          return Item.Begin <= Barrier.Begin && Barrier.End <= Item.End;
        });
    if (!Inside)
      Merged.push_back({TopLevelItem::Barrier, Barrier.Begin, Barrier.End});
  }
  std::stable_sort(Merged.begin(), Merged.end(),
                   [](const TopLevelItem &A, const TopLevelItem &B) { return A.Begin < B.Begin; });

  std::vector<FileEdit> Edits;
  auto Wrap = [&](const TopLevelItem &First, const TopLevelItem &Last) {
    if (Layout.startsLine(First.Begin))
      Edits.push_back({Layout.commentBlockAbove(First.Begin), 0, "namespace " + Namespace + " {\n",
                       EditOrder::WrapOpen, "global wrap"});
    else
      Edits.push_back(
          {First.Begin, 0, "namespace " + Namespace + " { ", EditOrder::WrapOpen, "global wrap"});
    if (!Layout.endsLine(Last.End)) {
      Edits.push_back({Last.End, 0, " }", EditOrder::WrapClose, "global wrap"});
      return;
    }
    unsigned At = Layout.nextLineStart(Last.End);
    bool NoFinalNewline = At == Layout.text().size() && !Layout.text().ends_with("\n");
    Edits.push_back({At, 0,
                     (NoFinalNewline ? "\n} // namespace " : "} // namespace ") + Namespace + "\n",
                     EditOrder::WrapClose, "global wrap"});
  };
  const TopLevelItem *First = nullptr, *Last = nullptr;
  for (const TopLevelItem &Item : Merged) {
    if (Item.Role == TopLevelItem::Wrap) {
      First = First ? First : &Item;
      Last = &Item;
      continue;
    }
    if (First)
      Wrap(*First, *Last);
    First = Last = nullptr;
  }
  if (First)
    Wrap(*First, *Last);
  return Edits;
}

} // namespace opmig::migrate
