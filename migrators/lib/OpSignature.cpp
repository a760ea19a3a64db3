#include "opmig/migrate/OpSignature.h"

#include "FakeChecks.h"
#include "FakeDerivation.h"
#include "LocalWrites.h"
#include "ParseLocations.h"
#include "RewriteContext.h"
#include "SchemaTypes.h"
#include "SignatureCache.h"
#include "SpecDerivation.h"
#include "StandInShapes.h"
#include "TensorWrites.h"
#include "UpstreamSchema.h"
#include "opmig/analyze/TUParser.h"
#include "opmig/migrate/Migrator.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Paths.h"

#include "clang/AST/DynamicRecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// One entry to derive, with where its result goes.
struct EntryJob {
  size_t Index = 0;
  const analyze::ResolvedEntry *Entry = nullptr;
  std::string OpName;
  /// Parameters the user says it writes (SignatureRequest::DeclaredWrites).
  std::vector<std::string> DeclaredWrites;
  std::string SourceRoot; ///< SignatureRequest::SourceRoot.
  /// SignatureRequest::WrittenPointerFields.
  const std::set<std::string> *WrittenPointerFields = nullptr;
};

/// `a`, `b`, ..., `z`, `aa`, ...: torch's alias set names for mutable
/// arguments, one per argument.
std::string aliasName(unsigned Index) {
  std::string Name;
  for (unsigned N = Index + 1; N > 0; N = (N - 1) / 26)
    Name.insert(Name.begin(), static_cast<char>('a' + (N - 1) % 26));
  return Name;
}

std::string schemaReturns(const std::vector<std::string> &Returns, ReturnForm Form) {
  if (Form == ReturnForm::Void)
    return "()";
  if (Form == ReturnForm::Tuple)
    return "(" + llvm::join(Returns, ", ") + ")";
  return Returns.front();
}

std::string pythonReturn(const ReturnTypes &Types) {
  if (Types.Form == ReturnForm::Void)
    return "None";
  if (Types.Form != ReturnForm::Tuple)
    return Types.Elements.front().Python;
  std::vector<std::string> Parts;
  for (const SchemaType &Element : Types.Elements)
    Parts.push_back(Element.Python);
  return "tuple[" + llvm::join(Parts, ", ") + "]";
}

/// The parameters the upstream's own schema marks as written, by index,
/// with why: matched by name, or by position when the names differ but the
/// counts agree.
std::map<unsigned, std::string> writtenByUpstreamSchema(const FunctionDecl &Function,
                                                        const analyze::ResolvedEntry &Entry) {
  std::vector<SchemaArgument> Arguments = schemaArguments(Entry.UpstreamSchema);
  std::map<unsigned, std::string> Written;
  bool SameCount = Arguments.size() == Function.getNumParams();
  for (size_t I = 0; I < Arguments.size(); ++I) {
    if (!Arguments[I].Writes)
      continue;
    std::optional<unsigned> Index;
    for (const ParmVarDecl *Param : Function.parameters())
      if (Param->getName() == Arguments[I].Name)
        Index = Param->getFunctionScopeIndex();
    if (!Index && SameCount)
      Index = I;
    if (Index)
      Written[*Index] = "the upstream schema (" + Entry.UpstreamSchemaAt.File + ":" +
                        std::to_string(Entry.UpstreamSchemaAt.Line) + ") marks it `" +
                        Arguments[I].Type + "`";
  }
  return Written;
}

/// The parameters the user declared written, which no analysis could
/// have seen (a write inside a function defined in another file). Each must
/// name a tensor parameter: a misspelt one would silently stay unmarked.
llvm::Error addDeclaredWrites(const FunctionDecl &Function, const EntryJob &Job,
                              std::map<unsigned, std::string> &Written) {
  std::vector<std::string> Tensors;
  for (const ParmVarDecl *Param : Function.parameters())
    if (isTensorLike(Param->getType()))
      Tensors.push_back(Param->getNameAsString());
  for (const std::string &Name : Job.DeclaredWrites) {
    const ParmVarDecl *const *Param = llvm::find_if(
        Function.parameters(), [&](const ParmVarDecl *P) { return P->getName() == Name; });
    if (Param == Function.param_end() || !isTensorLike((*Param)->getType()))
      return inputError("op `", Job.OpName, "` is declared to write `", Name,
                        "`, which is not one of its tensor parameters (", llvm::join(Tensors, ", "),
                        ")");
    Written.insert_or_assign((*Param)->getFunctionScopeIndex(), "declared written");
  }
  return llvm::Error::success();
}

/// Whether `Value` is `Var`, or lists it as an element (`{out, y}`,
/// `std::forward_as_tuple(b, a)`, a tuple constructed of it).
bool listsVariable(const Expr *Value, const VarDecl &Var) {
  Value = Value->IgnoreImplicit()->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Value))
    return Ref->getDecl() == &Var;
  auto AnyOf = [&](auto Args) {
    return llvm::any_of(Args, [&](const Expr *Arg) { return listsVariable(Arg, Var); });
  };
  if (const auto *List = dyn_cast<InitListExpr>(Value))
    return AnyOf(List->inits());
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value))
    return AnyOf(Construct->arguments());
  if (const auto *Call = dyn_cast<CallExpr>(Value))
    if (const FunctionDecl *Callee = Call->getDirectCallee();
        Callee && llvm::is_contained({"std::forward_as_tuple", "std::make_tuple", "std::tie",
                                      "std::make_pair", "std::move"},
                                     Callee->getQualifiedNameAsString()))
      return AnyOf(Call->arguments());
  return false;
}

/// Whether a return statement of the body returns `Var` (lambdas' own
/// return statements aside).
class ReturnsVariable : public ConstDynamicRecursiveASTVisitor {
public:
  explicit ReturnsVariable(const VarDecl &Var) : Var(Var) {}
  bool TraverseLambdaExpr(const LambdaExpr *) override { return true; }
  bool VisitReturnStmt(const ReturnStmt *Return) override {
    Found = Found || (Return->getRetValue() && listsVariable(Return->getRetValue(), Var));
    return true;
  }
  bool Found = false;

private:
  const VarDecl &Var;
};

/// Why a non-const `at::Tensor &` that no write rule found written is
/// still `Tensor(a!)`; empty when nothing says so. Assigning the parameter
/// (`x = x.reshape({-1, d})`) changes the entry's own handle, never the
/// caller's tensor; anything else done to the handle (passed on by non-const
/// reference, its address taken, `x += y`), a hand-over to a function whose
/// body is not seen, returning it (an output by the out-parameter
/// convention), or no use at all, leaves the write undecided.
std::string undecidedWrite(const ParmVarDecl &Param, const FunctionDecl &Function,
                           const SourceManager &SM) {
  const FunctionDecl *Definition = nullptr;
  if (!Function.hasBody(Definition) || !Definition->getBody())
    return "a non-const reference";
  const ParmVarDecl *Defined = Definition->getParamDecl(Param.getFunctionScopeIndex());
  if (!Defined->isReferenced())
    return "a non-const reference"; // nothing in the body tells otherwise
  ReturnsVariable Returned(*Defined);
  Returned.TraverseStmt(Definition->getBody());
  if (Returned.Found)
    return "a non-const reference, returned";
  for (const VariableWrite &W : findWrites(*Defined, *Definition->getBody()))
    if (!W.Assignment || !W.AssignedValue)
      return "a non-const reference";
  std::vector<std::string> Unseen = unseenReceivers(Function, Param.getFunctionScopeIndex(), SM);
  if (!Unseen.empty())
    return "a non-const reference, handed to `" + llvm::join(Unseen, "`, `") +
           "`, whose body is not seen";
  return "";
}

/// Maps the parameters of `Function` into `Sig`, giving each mutable tensor
/// its own alias set (`Aliases`, by parameter index): a non-const
/// `at::Tensor &`, a tensor the body writes (TensorWrites.h), one the
/// upstream's schema marks, or one the user declares written.
llvm::Error addParams(const FunctionDecl &Function, const EntryJob &Job, const ASTContext &Ctx,
                      OpSignature &Sig, std::vector<std::string> &Aliases) {
  Aliases.assign(Function.getNumParams(), "");
  std::map<unsigned, std::string> Written = writtenByUpstreamSchema(Function, *Job.Entry);
  for (TensorWrite &Write :
       findTensorWrites(Function, Ctx.getSourceManager(), *Job.WrittenPointerFields))
    Written.try_emplace(Write.Param, std::move(Write.How));
  if (llvm::Error E = addDeclaredWrites(Function, Job, Written))
    return E;
  unsigned MutableCount = 0;
  for (const ParmVarDecl *Param : Function.parameters()) {
    unsigned Index = Param->getFunctionScopeIndex();
    OpParam Op;
    Op.Name = Param->getName().empty() ? "arg" + std::to_string(Index) : Param->getNameAsString();
    Op.CppType = Param->getType().getAsString(Ctx.getPrintingPolicy());
    std::optional<SchemaType> Type = mapParamType(Param->getType());
    if (!Type)
      return inputError("entry `", Sig.CppFunction, "`: parameter `", Op.Name, "` has type `",
                        Op.CppType, "`, which an op schema cannot express");
    Op.SchemaType = Type->Schema;
    Op.PyAnnotation = Type->Python;
    Op.IsTensor = Type->IsTensor;
    Op.Mutable = Type->Mutable;
    if (auto It = Written.find(Index); It != Written.end()) {
      Op.Mutable = true;
      Op.MutableBecause = It->second;
    } else if (Op.Mutable) {
      Op.MutableBecause = undecidedWrite(*Param, Function, Ctx.getSourceManager());
      if (Op.MutableBecause.empty()) {
        // Only read: the dispatcher's `Tensor` reaches the upstream's
        // reference as an adapter's by-value copy.
        Op.Mutable = false;
        Op.BoxedCppType = "at::Tensor";
        Op.AdapterArg = Op.Name;
      }
    }
    if (!Type->Boxed.empty()) {
      Op.BoxedCppType = Type->Boxed;
      // An optional converts implicitly; a scalar is narrowed on purpose.
      Op.AdapterArg =
          llvm::StringRef(Type->Boxed).starts_with("std::optional")
              ? Op.Name
              : "static_cast<" +
                    printQualified(Param->getType().getNonReferenceType().getUnqualifiedType(),
                                   Ctx) +
                    ">(" + Op.Name + ")";
    }
    if (Op.Mutable) {
      // `Tensor(a!)`, or `Tensor(a!)?` for an optional one.
      Aliases[Index] = aliasName(MutableCount++);
      llvm::StringRef Base(Op.SchemaType);
      bool Optional = Base.consume_back("?");
      Op.SchemaType = Base.str() + "(" + Aliases[Index] + "!)" + (Optional ? "?" : "");
    }
    Sig.Params.push_back(std::move(Op));
  }
  return llvm::Error::success();
}

/// The schema results; a result that is always the same mutable parameter
/// aliases it, whether returned by reference or by value.
llvm::Error addResults(const ReturnTypes &Returns, const FakeResult &Fake,
                       const std::vector<std::string> &Aliases, const std::string &ResultType,
                       OpSignature &Sig) {
  for (size_t I = 0; I < Returns.Elements.size(); ++I) {
    const SchemaType &Element = Returns.Elements[I];
    std::optional<unsigned> Param =
        I < Fake.ReturnedParams.size() ? Fake.ReturnedParams[I] : std::nullopt;
    if (Element.Mutable && !Param)
      return inputError("entry `", Sig.CppFunction, "`: output ", std::to_string(I + 1), " is a `",
                        ResultType, "` that is not always the same mutable tensor parameter");
    bool Optional = llvm::StringRef(Element.Schema).ends_with("?");
    Sig.Returns.push_back(Param ? "Tensor(" + Aliases[*Param] + "!)" + (Optional ? "?" : "")
                                : Element.Schema);
  }
  return llvm::Error::success();
}

/// Builds the signature of one entry from its definition.
llvm::Expected<OpSignature> buildSignature(const FunctionDecl &Function, const EntryJob &Job,
                                           ASTContext &Ctx) {
  const std::string &OpName = Job.OpName;
  OpSignature Sig;
  Sig.OpName = OpName;
  Sig.CppFunction = Function.getQualifiedNameAsString();
  std::vector<std::string> Aliases;
  if (llvm::Error Err = addParams(Function, Job, Ctx, Sig, Aliases))
    return Err;
  QualType Result = Function.getReturnType();
  std::string ResultType = Result.getAsString(Ctx.getPrintingPolicy());
  std::optional<ReturnTypes> Returns = mapReturnType(Result);
  if (!Returns)
    return inputError("entry `", Sig.CppFunction, "`: return type `", ResultType,
                      "`, which an op schema cannot express");
  FakeResult Fake = deriveFake({&Function, OpName, Sig.Params, *Returns}, Ctx);
  if (llvm::Error Err = addResults(*Returns, Fake, Aliases, ResultType, Sig))
    return Err;
  std::vector<std::string> SchemaArgs, CppArgs, BoxedArgs;
  for (const OpParam &Param : Sig.Params)
    SchemaArgs.push_back(Param.SchemaType + " " + Param.Name);
  for (const ParmVarDecl *Param : Function.parameters()) {
    const OpParam &Op = Sig.Params[Param->getFunctionScopeIndex()];
    CppArgs.push_back(printQualified(Param->getType(), Ctx, Op.Name));
    BoxedArgs.push_back(Op.BoxedCppType.empty() ? CppArgs.back() : Op.BoxedCppType + " " + Op.Name);
    Sig.NeedsAdapter = Sig.NeedsAdapter || !Op.BoxedCppType.empty();
  }
  Sig.Schema =
      "(" + llvm::join(SchemaArgs, ", ") + ") -> " + schemaReturns(Sig.Returns, Returns->Form);
  Sig.PyReturn = pythonReturn(*Returns);
  Sig.CppDeclaration = printQualified(
      Result, Ctx, Function.getNameAsString() + "(" + llvm::join(CppArgs, ", ") + ")");
  std::string BoxedCall = Function.getNameAsString() + "(" + llvm::join(BoxedArgs, ", ") + ")";
  if (Returns->Form == ReturnForm::Single && !Returns->Elements.front().Boxed.empty()) {
    Sig.NeedsAdapter = true;
    Sig.BoxedDeclaration = Returns->Elements.front().Boxed + " " + BoxedCall;
  } else {
    Sig.BoxedDeclaration = printQualified(Result, Ctx, BoxedCall);
  }
  if (Sig.Returns.empty() && llvm::none_of(Sig.Params, [](const OpParam &P) { return P.Mutable; }))
    Sig.WritesUnseen = "it returns nothing, and no tensor parameter is seen written (a write "
                       "inside a function defined in another file is not followed): without "
                       "`(a!)` marks, torch.compile and functionalization treat it as doing "
                       "nothing; declare its outputs";
  Sig.Validation = deriveSpecOp({&Function, &Sig, Fake.ReturnedParams, Job.SourceRoot}, Ctx);
  Sig.FakeChecks = deriveFakeChecks(Sig.Validation);
  Sig.StandInShapes = standInShapes(Sig.Validation);
  Sig.FakeDerived = Fake.Derived;
  Sig.FakeReason = std::move(Fake.Reason);
  Sig.FakePython = std::move(Fake.Python);
  Sig.FakeCpp = std::move(Fake.Cpp);
  return Sig;
}

/// Finds the entries' definitions in the main file and derives their
/// signatures while the AST is alive.
class SignatureConsumer : public ASTConsumer {
public:
  SignatureConsumer(const std::vector<EntryJob> &Jobs, std::vector<std::optional<OpSignature>> &Out,
                    llvm::Error &Err, const SourceManager &SM)
      : Jobs(Jobs), Out(Out), Err(Err), SM(SM) {}

  /// Only the tree's own bodies are read (the entry's, and its helpers'
  /// whose checks the spec follows); skipping torch's saves most of a parse
  /// against the real headers.
  bool shouldSkipFunctionBody(Decl *D) override {
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (SM.isInMainFile(Loc))
      return false;
    return Jobs.empty() || !isBelow(SM.getFilename(Loc), Jobs.front().SourceRoot);
  }

  /// The declarations this parse read itself: with a preamble, walking the
  /// whole TU would deserialize every declaration of torch's headers, where
  /// no entry is defined.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (D && (inMainFile(D->getLocation()) || inMainFile(D->getBeginLoc()) ||
                inMainFile(D->getEndLoc())))
        TopLevel.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override;

private:
  bool inMainFile(SourceLocation Loc) const {
    return Loc.isValid() && SM.isInMainFile(SM.getExpansionLoc(Loc));
  }

  const std::vector<EntryJob> &Jobs;
  std::vector<std::optional<OpSignature>> &Out;
  llvm::Error &Err;
  const SourceManager &SM;
  std::vector<Decl *> TopLevel;
};

/// Definitions in the main file, by qualified name.
class DefinitionFinder : public ConstDynamicRecursiveASTVisitor {
public:
  explicit DefinitionFinder(const SourceManager &SM) : SM(SM) {}

  bool VisitFunctionDecl(const FunctionDecl *Function) override {
    if (Function->doesThisDeclarationHaveABody() &&
        SM.isInMainFile(SM.getExpansionLoc(Function->getLocation())))
      Definitions.emplace(Function->getQualifiedNameAsString(), Function);
    return true;
  }

  /// The definition of `Name` whose declaration spans `Line` (the analyzer
  /// reports the line of the name; the return type may start earlier).
  const FunctionDecl *find(const std::string &Name, unsigned Line) const {
    auto [Begin, End] = Definitions.equal_range(Name);
    for (auto It = Begin; It != End; ++It) {
      unsigned First = SM.getExpansionLineNumber(It->second->getBeginLoc());
      unsigned NameLine = SM.getExpansionLineNumber(It->second->getLocation());
      if (First <= Line && Line <= NameLine)
        return It->second;
    }
    return nullptr;
  }

private:
  const SourceManager &SM;
  std::multimap<std::string, const FunctionDecl *> Definitions;
};

/// An entry that an op schema cannot express is often the kernel-level
/// function under a torch-facing wrapper: name the wrappers to pass instead.
llvm::Error withCallersHint(llvm::Error E, const analyze::ResolvedEntry &Entry) {
  if (Entry.Callers.empty())
    return E;
  return llvm::handleErrors(std::move(E), [&](const InputError &Problem) -> llvm::Error {
    std::vector<std::string> Callers;
    for (const analyze::EntryCaller &Caller : Entry.Callers)
      Callers.push_back(Caller.Name + " (" + Caller.Loc.File + ":" +
                        std::to_string(Caller.Loc.Line) + ")");
    return inputError(Problem.text(), ". It is called by ", llvm::join(Callers, ", "),
                      ": if that is the torch-facing function, name it as the entry",
                      analyze::inputs::Entries,
                      " instead; to port this entry without an op (a wrapper of the target calls "
                      "it), leave ",
                      Entry.Requested, " unregistered", inputs::Unregistered);
  });
}

void SignatureConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  DefinitionFinder Finder(SM);
  for (Decl *D : TopLevel)
    Finder.TraverseDecl(D);
  for (const EntryJob &Job : Jobs) {
    const analyze::Location &Loc = Job.Entry->Loc;
    const FunctionDecl *Function = Finder.find(Job.Entry->Function, Loc.Line);
    llvm::Expected<OpSignature> Sig =
        Function ? buildSignature(*Function, Job, Ctx)
                 : llvm::Expected<OpSignature>(
                       inputError("entry `", Job.Entry->Function, "`: no definition at ", Loc.File,
                                  ":", std::to_string(Loc.Line), " in the parse of that file"));
    if (!Sig)
      Sig = withCallersHint(Sig.takeError(), *Job.Entry);
    if (Sig)
      Out[Job.Index] = std::move(*Sig);
    else if (Err)
      llvm::consumeError(Sig.takeError());
    else
      Err = Sig.takeError();
  }
}

class SignatureAction : public ASTFrontendAction {
public:
  SignatureAction(const std::vector<EntryJob> &Jobs, std::vector<std::optional<OpSignature>> &Out,
                  llvm::Error &Err, std::vector<std::string> &InputFiles)
      : Jobs(Jobs), Out(Out), Err(Err), InputFiles(InputFiles) {}

  /// What the cache entry depends on: every file the parse read.
  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End; ++It)
      InputFiles.push_back(inputPathOf(It->first, SM));
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    CI.getFrontendOpts().SkipFunctionBodies = true;
    // A header missing from the stand-in or partial torch install must not
    // stop the parse: the entry's own code is what matters.
    CI.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    return std::make_unique<SignatureConsumer>(Jobs, Out, Err, CI.getSourceManager());
  }

private:
  const std::vector<EntryJob> &Jobs;
  std::vector<std::optional<OpSignature>> &Out;
  llvm::Error &Err;
  std::vector<std::string> &InputFiles;
};

/// Counts the parse's errors, printing nothing: a parse with the preamble
/// that has any is repeated without it, as the analysis' parses are.
class ErrorCounter : public DiagnosticConsumer {};

/// Names a parse's signatures in the cache: its command line and what each
/// job asks of it.
std::string cacheKeyOf(const analyze::ParseRequest &Parse, const std::vector<EntryJob> &Jobs) {
  std::string Key = Parse.Directory;
  for (const std::string &Arg : analyze::parseCommandLine(Parse))
    Key += '\0' + Arg;
  for (const EntryJob &Job : Jobs) {
    const analyze::ResolvedEntry &E = *Job.Entry;
    for (const std::string &Part :
         {E.Function, E.Loc.File, std::to_string(E.Loc.Line), E.UpstreamSchema,
          E.UpstreamSchemaAt.File, std::to_string(E.UpstreamSchemaAt.Line), Job.OpName,
          llvm::join(Job.DeclaredWrites, ","), Job.SourceRoot})
      Key += '\0' + Part;
  }
  // Rule 5 of TensorWrites.h reads what the other TUs write.
  if (!Jobs.empty())
    for (const std::string &Field : *Jobs.front().WrittenPointerFields)
      Key += '\0' + Field;
  return Key;
}

/// The flags to parse `File` with: its own, else (a header defining an
/// entry) those of any closure TU, then the extra arguments.
std::vector<std::string> flagsFor(const SignatureRequest &Request, const std::string &File) {
  auto It = Request.TUFlags.find(File);
  if (It == Request.TUFlags.end())
    It = Request.TUFlags.begin();
  std::vector<std::string> Flags;
  if (It != Request.TUFlags.end())
    Flags = It->second;
  Flags.insert(Flags.end(), Request.ExtraArgs.begin(), Request.ExtraArgs.end());
  return Flags;
}

/// One parse of `Parse`'s main file that fills `Out` for `Jobs`; the error
/// of a derivation in `Err`. False when the parse itself reported errors.
bool parseForSignatures(const analyze::ParseRequest &Parse, const std::vector<EntryJob> &Jobs,
                        std::vector<std::optional<OpSignature>> &Out, llvm::Error &Err,
                        std::vector<std::string> &InputFiles) {
  ErrorCounter Errors;
  FileSystemOptions FSOptions;
  FSOptions.WorkingDir = Parse.Directory;
  llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(FSOptions));
  tooling::ToolInvocation Invocation(analyze::commandLineWithPreamble(Parse),
                                     std::make_unique<SignatureAction>(Jobs, Out, Err, InputFiles),
                                     Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  Invocation.run();
  // The cache entry depends on the preamble's headers, read through the PCH.
  InputFiles.insert(InputFiles.end(), Parse.PreambleInputs.begin(), Parse.PreambleInputs.end());
  if (!Parse.PreambleHeader.empty())
    std::erase(InputFiles, realPathOf(Parse.PreambleHeader));
  return Errors.getNumErrors() == 0;
}

/// Parses `File` (host side) once and derives the signatures of its entries.
llvm::Error deriveInFile(const SignatureRequest &Request, const std::string &File,
                         const std::vector<EntryJob> &Jobs,
                         std::vector<std::optional<OpSignature>> &Out, SignatureCache &Cache,
                         SignatureParses &Parses) {
  analyze::ParseRequest Parse;
  Parse.MainFile = Request.SourceRoot + "/" + File;
  Parse.SourceRoot = Request.SourceRoot;
  Parse.ExternalDirs = Request.ExternalDirs;
  Parse.Side = analyze::ParseSide::Host;
  Parse.Flags = flagsFor(Request, File);
  Parse.Directory = Request.SourceRoot;
  if (!llvm::sys::fs::exists(Parse.MainFile))
    return inputError("cannot read ", File, " under ", Request.SourceRoot,
                      ": no such file (it defines entry `", Jobs.front().Entry->Function, "`)");
  std::string Key = cacheKeyOf(Parse, Jobs);
  if (std::optional<std::vector<OpSignature>> Saved = Cache.lookup(Key);
      Saved && Saved->size() == Jobs.size()) {
    for (size_t I = 0; I < Jobs.size(); ++I)
      Out[Jobs[I].Index] = std::move((*Saved)[I]);
    ++Parses.Cached;
    return llvm::Error::success();
  }
  llvm::Error Err = llvm::Error::success();
  std::vector<std::string> InputFiles;
  analyze::ParseRequest WithPreamble = Parse;
  // A header defining an entry borrows a TU's flags: no preamble was built
  // for that (its own would cost more than this one parse).
  if (Request.TUFlags.count(File))
    Cache.attachPreamble(WithPreamble);
  bool Clean = parseForSignatures(WithPreamble, Jobs, Out, Err, InputFiles);
  ++Parses.Run;
  if (!WithPreamble.PreamblePch.empty()) {
    ++Parses.WithPreamble;
    if (!Clean) { // Only a plain parse's results count when there are errors.
      llvm::consumeError(std::move(Err));
      Err = llvm::Error::success();
      for (const EntryJob &Job : Jobs)
        Out[Job.Index].reset();
      InputFiles.clear();
      parseForSignatures(Parse, Jobs, Out, Err, InputFiles);
      ++Parses.Run;
    }
  }
  if (Err)
    return Err;
  std::vector<OpSignature> Derived;
  for (const EntryJob &Job : Jobs) {
    if (!Out[Job.Index])
      return inputError("entry `", Job.Entry->Function, "`: Clang could not parse ", File);
    Derived.push_back(*Out[Job.Index]);
  }
  llvm::sort(InputFiles);
  InputFiles.erase(llvm::unique(InputFiles), InputFiles.end());
  Cache.store(Key, InputFiles, Derived);
  return llvm::Error::success();
}

/// As the analysis asks for a TU's host parse (ported or not), from the
/// source root: its flags and folder choose the preamble it shares.
std::function<analyze::ParseRequest(const std::string &)>
hostRequestFor(const SignatureRequest &Request) {
  return [&Request](const std::string &TU) {
    analyze::ParseRequest Parse;
    Parse.MainFile = TU;
    Parse.SourceRoot = Request.SourceRoot;
    Parse.Side = analyze::ParseSide::Host;
    Parse.Directory = Request.SourceRoot;
    llvm::StringRef Relative(TU);
    if (!Relative.consume_front(Request.SourceRoot + "/"))
      Relative = TU;
    for (const auto *Flags : {&Request.TUFlags, &Request.OtherTUFlags})
      if (auto It = Flags->find(Relative.str()); It != Flags->end()) {
        Parse.Flags = It->second;
        break;
      }
    Parse.Flags.insert(Parse.Flags.end(), Request.ExtraArgs.begin(), Request.ExtraArgs.end());
    return Parse;
  };
}

} // namespace

static std::vector<std::string> declaredWrites(const SignatureRequest &Request,
                                               const std::string &OpName) {
  auto It = Request.DeclaredWrites.find(OpName);
  return It == Request.DeclaredWrites.end() ? std::vector<std::string>() : It->second;
}

llvm::Expected<std::vector<OpSignature>> deriveSignatures(const SignatureRequest &Request,
                                                          SignatureParses *Parses) {
  for (const auto &[OpName, Params] : Request.DeclaredWrites)
    if (!llvm::is_contained(Request.OpNames, OpName))
      return inputError("outputs are declared for op `", OpName,
                        "`, which this migration does not register (its ops: ",
                        llvm::join(Request.OpNames, ", "), ")");
  if (Request.OpNames.size() != Request.Entries.size())
    return llvm::createStringError("deriveSignatures: " + std::to_string(Request.Entries.size()) +
                                   " entries but " + std::to_string(Request.OpNames.size()) +
                                   " op names");
  // One parse per file, however many entries it defines.
  std::map<std::string, std::vector<EntryJob>> ByFile;
  for (size_t I = 0; I < Request.Entries.size(); ++I)
    ByFile[Request.Entries[I].Loc.File].push_back(
        {I, &Request.Entries[I], Request.OpNames[I], declaredWrites(Request, Request.OpNames[I]),
         Request.SourceRoot, &Request.WrittenPointerFields});
  std::vector<std::optional<OpSignature>> Derived(Request.Entries.size());
  SignatureCache Cache(Request.CacheDir, Request.SourceRoot,
                       Request.UsePreamble
                           ? hostRequestFor(Request)
                           : std::function<analyze::ParseRequest(const std::string &)>(),
                       Request.Jobs);
  SignatureParses Counted;
  for (const auto &[File, Jobs] : ByFile)
    if (llvm::Error Err = deriveInFile(Request, File, Jobs, Derived, Cache, Counted))
      return Err;
  if (Parses)
    *Parses = Counted;
  std::vector<OpSignature> Signatures;
  for (std::optional<OpSignature> &Sig : Derived)
    Signatures.push_back(std::move(*Sig));
  return Signatures;
}

} // namespace opmig::migrate
