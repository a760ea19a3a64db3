//===- CppDefinitionScanner.cpp - Namespace-scope definitions of a file ---===//

#include "CppDefinitionScanner.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>

namespace opmig::audit {

using namespace clang;

namespace {

/// What a declaration defines, or nullptr when it is not a named
/// definition this check judges.
const char *definitionKind(const Decl *D) {
  if (D->isImplicit() || D->isTemplateParameter())
    return nullptr;
  if (const auto *Template = dyn_cast<TemplateDecl>(D))
    return Template->getTemplatedDecl() ? definitionKind(Template->getTemplatedDecl()) : nullptr;
  if (const auto *Function = dyn_cast<FunctionDecl>(D)) {
    if (isa<CXXMethodDecl>(Function) || isa<CXXDeductionGuideDecl>(Function) ||
        !Function->isThisDeclarationADefinition() ||
        Function->getTemplateSpecializationKind() != TSK_Undeclared)
      return nullptr;
    // No type written before the name: an unknown macro invocation such as
    // `PYBIND11_MODULE(name, m) {` that Clang recovered as a function.
    if (Function->getBeginLoc() == Function->getLocation())
      return nullptr;
    return "function";
  }
  if (const auto *Record = dyn_cast<CXXRecordDecl>(D)) {
    if (isa<ClassTemplateSpecializationDecl>(Record) || !Record->isThisDeclarationADefinition())
      return nullptr;
    return "class";
  }
  if (const auto *Enum = dyn_cast<EnumDecl>(D))
    return Enum->isThisDeclarationADefinition() ? "enum" : nullptr;
  if (const auto *Var = dyn_cast<VarDecl>(D)) {
    if (isa<VarTemplateSpecializationDecl>(Var) || Var->isStaticDataMember() ||
        Var->isThisDeclarationADefinition() == VarDecl::DeclarationOnly)
      return nullptr;
    return "variable";
  }
  return nullptr;
}

/// The namespaces around `Context`, outermost first; nullopt when it is
/// inside a class (an out-of-line member).
std::optional<std::vector<std::string>> namespacesAround(const DeclContext *Context) {
  std::vector<std::string> Names;
  for (; Context && !Context->isTranslationUnit(); Context = Context->getParent()) {
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(Context))
      Names.push_back(Namespace->isAnonymousNamespace() ? "" : Namespace->getNameAsString());
    else if (!Context->isTransparentContext())
      return std::nullopt;
  }
  std::reverse(Names.begin(), Names.end());
  return Names;
}

class DefinitionCollector : public ASTConsumer {
public:
  explicit DefinitionCollector(std::optional<std::vector<NamespaceScopeDefinition>> &Out)
      : Out(Out) {}

  void HandleTranslationUnit(ASTContext &Context) override {
    SM = &Context.getSourceManager();
    Out.emplace();
    visit(Context.getTranslationUnitDecl());
  }

  bool shouldSkipFunctionBody(Decl *) override { return true; }

private:
  void visit(const DeclContext *Context) {
    for (const Decl *D : Context->decls()) {
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) || isa<ExportDecl>(D)) {
        visit(cast<DeclContext>(D));
        continue;
      }
      const auto *Named = dyn_cast<NamedDecl>(D);
      if (Named && Named->getDeclName().isIdentifier() && !Named->getName().empty())
        record(*Named);
    }
  }

  void record(const NamedDecl &D) {
    const char *Kind = definitionKind(&D);
    if (!Kind)
      return;
    // The name must be spelled in this file: one a macro pastes together
    // (`PyInit_##name`) or an included header declares is not judged here.
    SourceLocation Spelling = SM->getSpellingLoc(D.getLocation());
    if (!SM->isWrittenInMainFile(Spelling) || namesSpecialization(Spelling, D.getName()))
      return;
    std::optional<std::vector<std::string>> Namespaces = namespacesAround(D.getDeclContext());
    if (!Namespaces)
      return;
    SourceLocation Where = SM->getExpansionLoc(D.getLocation());
    Out->push_back({D.getNameAsString(), Kind, std::move(*Namespaces),
                    SM->getExpansionLineNumber(Where), SM->getExpansionColumnNumber(Where)});
  }

  /// Whether template arguments follow the name (`struct hash<Key> {`): an
  /// explicit or partial specialization, also when its template is in a
  /// header that was not found and Clang recovered a plain class.
  bool namesSpecialization(SourceLocation Name, StringRef Spelled) const {
    bool Invalid = false;
    const char *After = SM->getCharacterData(Name, &Invalid) + Spelled.size();
    if (Invalid)
      return false;
    while (*After == ' ' || *After == '\t' || *After == '\n' || *After == '\r')
      ++After;
    return *After == '<';
  }

  std::optional<std::vector<NamespaceScopeDefinition>> &Out;
  const SourceManager *SM = nullptr;
};

class DefinitionAction : public ASTFrontendAction {
public:
  explicit DefinitionAction(std::optional<std::vector<NamespaceScopeDefinition>> &Out) : Out(Out) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // torch, pybind11 and the CUDA toolkit are usually absent where the
    // audit runs; their includes are skipped instead of ending the parse.
    CI.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    // Definitions are named outside bodies; skipping them keeps the parse
    // short and free of the errors unknown types in bodies would cause.
    CI.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<DefinitionCollector>(Out);
  }

private:
  std::optional<std::vector<NamespaceScopeDefinition>> &Out;
};

bool isCudaFile(llvm::StringRef Path) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path);
  return Extension == ".cu" || Extension == ".cuh";
}

/// The driver's view of a parse of a `.cu` (Cuda) or C++ file, worked out
/// once: running the driver (toolchain discovery) for every file would
/// cost as much as the parse itself.
std::shared_ptr<CompilerInvocation> baseInvocation(bool Cuda,
                                                   const std::vector<std::string> &IncludeDirs) {
  std::vector<std::string> Includes;
  for (const std::string &Dir : IncludeDirs)
    Includes.push_back("-I" + Dir);
  std::vector<const char *> Args = {"clang++"};
  for (const std::string &Include : Includes)
    Args.push_back(Include.c_str());
  if (Cuda)
    Args.insert(Args.end(), {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib"});
  else
    Args.insert(Args.end(), {"-x", "c++"});
  // The CUDA keywords live in toolkit headers that are not searched; as
  // attributes they keep kernels (and .h files shared with .cu files)
  // parseable.
  Args.insert(Args.end(),
              {"-D__global__=__attribute__((global))", "-D__device__=__attribute__((device))",
               "-D__host__=__attribute__((host))", "-D__shared__=__attribute__((shared))",
               "-D__constant__=__attribute__((constant))", "-D__managed__=__attribute__((managed))",
               "-D__forceinline__=inline",
               "-D__launch_bounds__(...)=", "-D__align__(n)=__attribute__((aligned(n)))"});
  // Unknown names (torch::Tensor without its headers) are expected here:
  // correcting their spelling would take most of the parse time.
  Args.insert(Args.end(), {"-nostdinc", "-fno-spell-checking", "-ferror-limit=0", "-w",
                           "-fsyntax-only", Cuda ? "opmig-input.cu" : "opmig-input.cpp"});
  DiagnosticOptions Options;
  IgnoringDiagConsumer Quiet;
  CreateInvocationOptions Create;
  Create.Diags = CompilerInstance::createDiagnostics(*llvm::vfs::getRealFileSystem(), Options,
                                                     &Quiet, /*ShouldOwnClient=*/false);
  Create.RecoverOnError = true;
  return createInvocation(Args, std::move(Create));
}

/// Parses `Path` with a copy of `Base`; nullopt when the frontend never
/// reached an AST (an unreadable file).
std::optional<std::vector<NamespaceScopeDefinition>> scanOne(const CompilerInvocation &Base,
                                                             const std::string &Path) {
  auto Invocation = std::make_shared<CompilerInvocation>(Base);
  FrontendOptions &Frontend = Invocation->getFrontendOpts();
  InputKind Kind = Frontend.Inputs.front().getKind();
  Frontend.Inputs = {FrontendInputFile(Path, Kind)};
  CompilerInstance Compiler(std::move(Invocation));
  Compiler.createVirtualFileSystem();
  IgnoringDiagConsumer Quiet;
  Compiler.createDiagnostics(&Quiet, /*ShouldOwnClient=*/false);
  std::optional<std::vector<NamespaceScopeDefinition>> Found;
  DefinitionAction Action(Found);
  Compiler.ExecuteAction(Action);
  return Found;
}

} // namespace

std::vector<std::optional<std::vector<NamespaceScopeDefinition>>>
scanDefinitions(const std::vector<std::string> &Paths,
                const std::vector<std::string> &IncludeDirs) {
  std::vector<std::optional<std::vector<NamespaceScopeDefinition>>> Found(Paths.size());
  std::shared_ptr<CompilerInvocation> Cuda, Cxx;
  for (const std::string &Path : Paths) {
    std::shared_ptr<CompilerInvocation> &Base = isCudaFile(Path) ? Cuda : Cxx;
    if (!Base)
      Base = baseInvocation(isCudaFile(Path), IncludeDirs);
    if (!Base)
      return Found;
  }
  // Each parse has its own CompilerInstance: the files parse in parallel.
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency());
  for (size_t I = 0; I < Paths.size(); ++I)
    Pool.async([&, I] { Found[I] = scanOne(isCudaFile(Paths[I]) ? *Cuda : *Cxx, Paths[I]); });
  Pool.wait();
  return Found;
}

} // namespace opmig::audit
