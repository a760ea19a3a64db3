#include "ASTFactsCollector.h"

#include "PointerFieldWrites.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"

namespace opmig::analyze {

using namespace clang;

namespace {

/// A member template of an instantiated class template, traced back to the
/// member template as written (`Traits<float>::rebind` -> `Traits<T>::rebind`).
template <typename TemplateDeclT> const TemplateDeclT *uninstantiated(const TemplateDeclT *T) {
  while (const TemplateDeclT *From = T->getInstantiatedFromMemberTemplate())
    T = From;
  return T;
}

/// The declaration a use really depends on: the primary template for a
/// specialization, the member template for a member of an instantiated class.
const Decl *patternOf(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate())
      return patternOf(uninstantiated(Primary)->getTemplatedDecl());
    if (const FunctionDecl *Member = FD->getInstantiatedFromMemberFunction())
      return patternOf(Member);
    // A member template named through its class's specialization
    // (`Tiler<float>::launch`, not yet given arguments).
    if (const FunctionTemplateDecl *Described = FD->getDescribedFunctionTemplate();
        Described && Described->getInstantiatedFromMemberTemplate())
      return uninstantiated(Described)->getTemplatedDecl();
    return FD;
  }
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D)) {
    if (!Spec->isExplicitSpecialization())
      return patternOf(uninstantiated(Spec->getSpecializedTemplate())->getTemplatedDecl());
    return Spec;
  }
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
    if (const CXXRecordDecl *Member = RD->getInstantiatedFromMemberClass())
      return patternOf(Member);
    if (const ClassTemplateDecl *Described = RD->getDescribedClassTemplate();
        Described && Described->getInstantiatedFromMemberTemplate())
      return uninstantiated(Described)->getTemplatedDecl();
    return RD;
  }
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (const VarDecl *Member = VD->getInstantiatedFromStaticDataMember())
      return patternOf(Member);
    return VD;
  }
  if (const auto *ED = dyn_cast<EnumDecl>(D)) {
    if (const EnumDecl *Member = ED->getInstantiatedFromMemberEnum())
      return Member;
  }
  return D;
}

/// Maps a referenced declaration to the symbol that owns it: an enumerator
/// to its enum, a field to its record, a template to its pattern.
const Decl *ownerOf(const Decl *D) {
  if (const auto *Template = dyn_cast<TemplateDecl>(D))
    D = Template->getTemplatedDecl();
  if (const auto *Shadow = dyn_cast_or_null<UsingShadowDecl>(D))
    D = Shadow->getTargetDecl();
  if (!D)
    return nullptr;
  // Implicit members (a defaulted copy constructor) belong to their class.
  if (isa<EnumConstantDecl, FieldDecl, IndirectFieldDecl>(D) ||
      (D->isImplicit() && isa<RecordDecl>(D->getDeclContext())))
    D = dyn_cast<Decl>(D->getDeclContext());
  if (!D || D->getParentFunctionOrMethod())
    return nullptr;
  return patternOf(D);
}

std::optional<SymbolKind> kindOf(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    if (FD->getBuiltinID() || FD->isImplicit())
      return std::nullopt;
    if (FD->hasAttr<CUDAGlobalAttr>())
      return SymbolKind::Kernel;
    return FD->getDescribedFunctionTemplate() ? SymbolKind::Template : SymbolKind::Function;
  }
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
    if (RD->isLambda())
      return std::nullopt;
    return RD->getDescribedClassTemplate() ? SymbolKind::Template : SymbolKind::Class;
  }
  if (isa<RecordDecl>(D))
    return SymbolKind::Class;
  if (isa<EnumDecl>(D))
    return SymbolKind::Enum;
  if (isa<TypedefNameDecl>(D))
    return SymbolKind::Alias;
  if (const auto *VD = dyn_cast<VarDecl>(D)) {
    if (!VD->hasGlobalStorage() || VD->isStaticLocal() || isa<ParmVarDecl>(VD))
      return std::nullopt;
    // `extern __shared__ char smem[];` names the launch's dynamic shared
    // memory: nothing defines it, and nothing has to.
    if (VD->hasExternalStorage() && VD->hasAttr<CUDASharedAttr>())
      return std::nullopt;
    return VD->getDescribedVarTemplate() ? SymbolKind::Template : SymbolKind::Variable;
  }
  return std::nullopt;
}

/// The range a definition covers, including its `template <...>` header.
SourceRange definitionRange(const Decl *D) {
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    if (const FunctionTemplateDecl *Template = FD->getDescribedFunctionTemplate())
      return Template->getSourceRange();
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const ClassTemplateDecl *Template = RD->getDescribedClassTemplate())
      return Template->getSourceRange();
  return D->getSourceRange();
}

struct DefinitionRange {
  unsigned Begin = 0, End = 0;
  std::string Usr;
};

/// State shared by the visitors of one TU.
class SymbolTable {
public:
  SymbolTable(TreeLocations &Locs, TUFacts &Facts) : Locs(Locs), Facts(Facts) {}

  /// USR of the tree symbol owning `D`, recording its declaration; empty
  /// when `D` is not a tree symbol.
  std::string symbolFor(const Decl *D) {
    const Decl *Owner = D ? ownerOf(D) : nullptr;
    if (!Owner)
      return {};
    std::optional<SymbolKind> Kind = kindOf(Owner);
    if (!Kind || !Locs.inTree(Owner->getLocation()))
      return {};
    llvm::SmallString<128> Usr;
    if (index::generateUSRForDecl(Owner, Usr))
      return {};
    auto [It, Inserted] = Facts.Symbols.try_emplace(std::string(Usr));
    if (Inserted) {
      SymbolFact &Sym = It->second;
      Sym.Name = cast<NamedDecl>(Owner)->getQualifiedNameAsString();
      Sym.Kind = *Kind;
      Sym.File = Locs.fileOf(Owner->getLocation());
      Sym.Line = Locs.lineOf(Owner->getLocation());
      if (const auto *Parent = dyn_cast<RecordDecl>(Owner->getDeclContext()))
        Sym.Parent = symbolFor(Parent);
      for (const Decl *Redecl : Owner->redecls())
        noteDeclaredIn(Sym, Redecl);
    }
    if (D != Owner)
      noteDeclaredIn(It->second, D);
    return It->first;
  }

  void markDefinition(const std::string &Usr, const Decl *D) {
    SymbolFact &Sym = Facts.Symbols[Usr];
    Sym.IsDefinition = true;
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      Sym.EmittedWhereIncluded = !FD->isInlined() && !FD->isTemplated() && !FD->isDefaulted() &&
                                 !FD->isDeleted() && FD->isExternallyVisible();
    Sym.File = Locs.fileOf(D->getLocation());
    Sym.Line = Locs.lineOf(D->getLocation());
    const SourceManager &SM = Locs.sourceManager();
    CharSourceRange Range = SM.getExpansionRange(definitionRange(D));
    if (SM.getFileID(Range.getBegin()) != SM.getFileID(Range.getEnd()))
      return;
    Sym.BeginOffset = SM.getFileOffset(Range.getBegin());
    Sym.EndOffset = SM.getFileOffset(Range.getEnd()) +
                    Lexer::MeasureTokenLength(Range.getEnd(), SM, D->getLangOpts());
    Ranges[Sym.File].push_back({Sym.BeginOffset, Sym.EndOffset, Usr});
  }

  void noteDeclaredIn(SymbolFact &Sym, const Decl *D) {
    if (Locs.inTree(D->getLocation()))
      Sym.DeclaredIn.insert(Locs.fileOf(D->getLocation()));
  }

  /// The innermost definition around `Offset` in `File`, or null.
  const DefinitionRange *enclosing(const std::string &File, unsigned Offset) const {
    auto It = Ranges.find(File);
    if (It == Ranges.end())
      return nullptr;
    const DefinitionRange *Best = nullptr;
    for (const DefinitionRange &R : It->second)
      if (R.Begin <= Offset && Offset <= R.End &&
          (!Best || R.End - R.Begin < Best->End - Best->Begin))
        Best = &R;
    return Best;
  }

  TreeLocations &Locs;
  TUFacts &Facts;

private:
  std::map<std::string, std::vector<DefinitionRange>> Ranges;
};

/// USR of exactly this declaration (a specialization keeps its arguments).
std::string exactUsr(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(D, Usr))
    return {};
  return std::string(Usr);
}

/// Where an explicit instantiation definition of `D` is written. A class's
/// members keep the point of instantiation of the first explicit
/// instantiation, which is the `extern template` declaration when there is
/// one; the definition's `template` keyword is where the code comes from.
SourceLocation instantiationDefinitionLoc(const Decl *D, SourceLocation PointOfInstantiation) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D);
  if (!Spec)
    Spec = dyn_cast<ClassTemplateSpecializationDecl>(D->getDeclContext());
  if (!Spec || Spec->getTemplateSpecializationKind() != TSK_ExplicitInstantiationDefinition)
    return PointOfInstantiation;
  // Each explicit instantiation of a class is a redeclaration of its own.
  for (const Decl *Redecl : Spec->redecls()) {
    const auto *Written = cast<ClassTemplateSpecializationDecl>(Redecl);
    if (Written->getTemplateKeywordLoc().isValid() && Written->getExternKeywordLoc().isInvalid())
      return Written->getTemplateKeywordLoc();
  }
  return PointOfInstantiation;
}

/// `tl::Launcher<float>::run`, `f<__half>`: a specialization as a reader
/// would write it.
std::string nameWithArguments(const Decl *D) {
  const auto *Named = cast<NamedDecl>(D);
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(D->getASTContext().getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  Named->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return Name;
}

/// Collects the tree symbols one definition references.
class RefCollector : public DynamicRecursiveASTVisitor {
public:
  RefCollector(SymbolTable &Table, SymbolFact &Owner, const ASTContext &Ctx)
      : Table(Table), Owner(Owner), Ctx(Ctx) {}

  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    add(E->getDecl());
    noteSpecialization(E->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) override {
    add(E->getMemberDecl());
    noteSpecialization(E->getMemberDecl());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) override {
    add(E->getConstructor());
    noteSpecialization(E->getConstructor());
    return true;
  }
  /// A generic lambda's body is a template: what it calls for each type it
  /// was used with (a dtype dispatch) lives in its call operator's
  /// instantiations, which a traversal of the pattern never sees.
  bool VisitLambdaExpr(LambdaExpr *E) override {
    if (FunctionTemplateDecl *Call = E->getDependentCallOperator())
      for (FunctionDecl *Instantiation : Call->specializations())
        TraverseDecl(Instantiation);
    return true;
  }
  /// The branch an `if constexpr` discards outside a template is checked but
  /// never emitted: a dtype ladder needs only what each dtype's branch calls.
  bool TraverseIfStmt(IfStmt *S) override {
    if (!S->isConstexpr() || S->getCond()->isValueDependent())
      return DynamicRecursiveASTVisitor::TraverseIfStmt(S);
    std::optional<Stmt *> Taken = S->getNondiscardedCase(Ctx);
    return TraverseStmt(S->getInit()) && TraverseStmt(S->getConditionVariableDeclStmt()) &&
           TraverseStmt(S->getCond()) && (!Taken || TraverseStmt(*Taken));
  }
  bool VisitOverloadExpr(OverloadExpr *E) override {
    for (const NamedDecl *Candidate : E->decls())
      add(Candidate->getUnderlyingDecl());
    return true;
  }
  bool VisitTypeLoc(TypeLoc TL) override {
    const Type *T = TL.getTypePtr();
    if (const auto *Tag = dyn_cast<TagType>(T))
      add(Tag->getDecl());
    else if (const auto *Typedef = dyn_cast<TypedefType>(T))
      add(Typedef->getDecl());
    else if (const auto *Using = dyn_cast<UsingType>(T))
      add(Using->getDecl()->getTargetDecl());
    else if (const auto *Spec = dyn_cast<TemplateSpecializationType>(T))
      add(Spec->getTemplateName().getAsTemplateDecl());
    else if (const auto *Deduced = dyn_cast<DeducedTemplateSpecializationType>(T))
      add(Deduced->getTemplateName().getAsTemplateDecl());
    return true;
  }

private:
  void add(const Decl *D) {
    std::string Usr = Table.symbolFor(D);
    if (!Usr.empty())
      Owner.Refs.insert(std::move(Usr));
  }

  /// A specialization this TU cannot generate itself must be provided by
  /// whichever TU defines or instantiates it: an explicit specialization, one
  /// an `extern template` keeps from being instantiated here, or one of a
  /// template whose body this TU cannot see. Function templates, members of
  /// class templates and static data members all qualify.
  void noteSpecialization(const Decl *D) {
    if (!D || !needsProvider(D))
      return;
    std::string Template = Table.symbolFor(D), Specialization = exactUsr(D);
    if (!Template.empty() && !Specialization.empty())
      Owner.Specializations.emplace(std::move(Specialization), std::move(Template));
  }

  static bool needsProvider(const Decl *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return needsProvider(FD);
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return needsProvider(VD);
    return false;
  }

  static bool needsProvider(const FunctionDecl *FD) {
    const FunctionDecl *Pattern = nullptr;
    if (const FunctionTemplateDecl *Primary = FD->getPrimaryTemplate())
      Pattern = Primary->getTemplatedDecl();
    else
      Pattern = FD->getInstantiatedFromMemberFunction();
    if (!Pattern)
      return false;
    return isProvidedElsewhere(FD->getTemplateSpecializationKind()) ||
           (!FD->isDefined() && !Pattern->isDefined());
  }

  static bool needsProvider(const VarDecl *VD) {
    const VarDecl *Pattern = VD->getInstantiatedFromStaticDataMember();
    if (!Pattern)
      return false;
    return isProvidedElsewhere(VD->getTemplateSpecializationKind()) ||
           (!VD->getDefinition() && !Pattern->getDefinition());
  }

  static bool isProvidedElsewhere(TemplateSpecializationKind Kind) {
    return Kind == TSK_ExplicitSpecialization || Kind == TSK_ExplicitInstantiationDeclaration;
  }

  SymbolTable &Table;
  SymbolFact &Owner;
  const ASTContext &Ctx;
};

const StringLiteral *firstStringLiteral(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *Literal = dyn_cast<StringLiteral>(S))
    return Literal;
  for (const Stmt *Child : S->children())
    if (const StringLiteral *Found = firstStringLiteral(Child))
      return Found;
  return nullptr;
}

/// `TORCH_FN(f)` passes `f` as a template argument of the argument's type.
const FunctionDecl *functionInTemplateArguments(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec)
    return nullptr;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
    if (Arg.getKind() == TemplateArgument::Declaration)
      if (const auto *FD = dyn_cast<FunctionDecl>(Arg.getAsDecl()))
        return FD;
  return nullptr;
}

const FunctionDecl *firstFunctionReference(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S))
    if (const FunctionDecl *FD = functionInTemplateArguments(E->getType()))
      return FD;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return FD;
  for (const Stmt *Child : S->children())
    if (const FunctionDecl *Found = firstFunctionReference(Child))
      return Found;
  return nullptr;
}

/// Visits every declaration (template instantiations included) and records
/// definitions with their references, explicit instantiations and op
/// registrations.
class DeclCollector : public DynamicRecursiveASTVisitor {
public:
  DeclCollector(SymbolTable &Table, const PreprocessorFacts &PPFacts)
      : Table(Table), PPFacts(PPFacts) {
    ShouldVisitTemplateInstantiations = true;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition)
      recordInstantiation(FD, instantiationDefinitionLoc(FD, FD->getPointOfInstantiation()));
    // `template <> half from_float<half>(float)` provides a specialization
    // the way an explicit instantiation does.
    if (FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization &&
        FD->doesThisDeclarationHaveABody())
      recordInstantiation(FD, FD->getLocation());
    // `= delete` and `= default` define the function too: nothing to link.
    if (FD->doesThisDeclarationHaveABody() || FD->isDeleted() || FD->isExplicitlyDefaulted())
      recordDefinition(FD);
    if (FD->doesThisDeclarationHaveABody() && Table.Locs.inTree(FD->getLocation()))
      FieldWrites.collect(*FD, Table.Facts.WrittenPointerFields);
    else
      Table.symbolFor(FD);
    return true;
  }
  bool VisitRecordDecl(RecordDecl *RD) override {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (Spec->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition &&
          Spec->isFirstDecl())
        recordInstantiation(Spec,
                            instantiationDefinitionLoc(Spec, Spec->getPointOfInstantiation()));
    if (RD->isThisDeclarationADefinition() && !RD->isImplicit())
      recordDefinition(RD);
    return true;
  }
  bool VisitEnumDecl(EnumDecl *ED) override {
    if (ED->isThisDeclarationADefinition())
      recordDefinition(ED);
    return true;
  }
  bool VisitTypedefNameDecl(TypedefNameDecl *TD) override {
    recordDefinition(TD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) override {
    // `template <> const int Traits<float>::value = 4;` and the static data
    // members of `template struct Traits<float>;` provide specializations.
    if (VD->getTemplateSpecializationKind() == TSK_ExplicitInstantiationDefinition)
      recordInstantiation(VD, instantiationDefinitionLoc(VD, VD->getPointOfInstantiation()));
    if (VD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization &&
        VD->isThisDeclarationADefinition() != VarDecl::DeclarationOnly)
      recordInstantiation(VD, VD->getLocation());
    if (VD->isThisDeclarationADefinition() != VarDecl::DeclarationOnly)
      recordDefinition(VD);
    else
      Table.symbolFor(VD);
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *CE) override {
    recordRegistration(CE);
    return true;
  }

private:
  void recordDefinition(const Decl *D) {
    if (D->getParentFunctionOrMethod())
      return;
    std::string Usr = Table.symbolFor(D);
    if (Usr.empty())
      return;
    if (patternOf(D) == D)
      Table.markDefinition(Usr, D);
    SymbolFact &Owner = Table.Facts.Symbols[Usr];
    RefCollector(Table, Owner, D->getASTContext()).TraverseDecl(const_cast<Decl *>(D));
    Owner.Refs.erase(Usr);
  }

  void recordInstantiation(const Decl *D, SourceLocation PointOfInstantiation) {
    std::string Usr = Table.symbolFor(D);
    if (Usr.empty() || !Table.Locs.inTree(PointOfInstantiation))
      return;
    Table.Facts.Instantiations.push_back({Usr, exactUsr(D), Table.Locs.fileOf(PointOfInstantiation),
                                          Table.Locs.lineOf(PointOfInstantiation),
                                          nameWithArguments(D)});
  }

  void recordRegistration(const CXXMemberCallExpr *CE) {
    const CXXMethodDecl *Method = CE->getMethodDecl();
    if (!Method || CE->getNumArgs() == 0 || !Table.Locs.inTree(CE->getBeginLoc()))
      return;
    llvm::StringRef Name = Method->getName(), Class = Method->getParent()->getName();
    bool IsTorch = Class == "Library", IsPybind = Class == "module_" || Class == "module";
    if ((Name != "def" && Name != "impl") || (!IsTorch && !IsPybind))
      return;
    const StringLiteral *Literal = firstStringLiteral(CE->getArg(0));
    if (!Literal)
      return;
    RegistrationFact Reg;
    Reg.Via = IsTorch ? "torch-op" : "pybind";
    Reg.File = Table.Locs.fileOf(CE->getBeginLoc());
    Reg.Line = Table.Locs.lineOf(CE->getBeginLoc());
    auto [Op, Args] = Literal->getString().split('(');
    Op = Op.trim();
    if (IsTorch && Name == "def" && !Args.empty())
      Reg.Schema = ("(" + Args).str();
    if (auto [Ns, Rest] = Op.rsplit("::"); !Rest.empty()) {
      Reg.Namespace = Ns.str();
      Op = Rest;
    } else if (const RegistrationBlock *Block = enclosingBlock(Reg.File, CE->getBeginLoc())) {
      Reg.Namespace = Block->Namespace;
    }
    Reg.OpName = Op.str();
    for (unsigned I = 1; I < CE->getNumArgs() && Reg.Function.empty(); ++I)
      Reg.Function = Table.symbolFor(firstFunctionReference(CE->getArg(I)));
    Table.Facts.Registrations.push_back(std::move(Reg));
  }

  const RegistrationBlock *enclosingBlock(const std::string &File, SourceLocation Loc) const {
    unsigned Offset = Table.Locs.offsetOf(Loc);
    const RegistrationBlock *Best = nullptr;
    for (const RegistrationBlock &Block : PPFacts.Blocks)
      if (Block.File == File && Block.Offset <= Offset && (!Best || Block.Offset > Best->Offset))
        Best = &Block;
    return Best;
  }

  SymbolTable &Table;
  const PreprocessorFacts &PPFacts;
  PointerFieldWrites FieldWrites;
};

} // namespace

void collectASTFacts(ASTContext &Ctx, TreeLocations &Locs, const PreprocessorFacts &PPFacts,
                     TUFacts &Facts) {
  SymbolTable Table(Locs, Facts);
  DeclCollector(Table, PPFacts).TraverseAST(Ctx);
  for (const MacroUse &Use : PPFacts.MacroUses) {
    if (const DefinitionRange *Def = Table.enclosing(Use.File, Use.Offset))
      Facts.Symbols[Def->Usr].Refs.insert(Use.MacroId);
    else
      Facts.FileScopeRefs[Use.File].insert(Use.MacroId);
  }
}

} // namespace opmig::analyze
