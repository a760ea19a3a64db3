#include "RewriteParse.h"

#include "CoverageRecorder.h"
#include "DefinitionSlicer.h"
#include "GlobalWrapper.h"
#include "IncludeRewriter.h"
#include "NamespaceRenamer.h"
#include "opmig/analyze/PreambleAttacher.h"
#include "opmig/analyze/TUParser.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace opmig::migrate {

using namespace clang;

namespace {

/// Keeps the first error of a parse; the rewrite goes on with the AST Clang
/// recovered.
class FirstError : public DiagnosticConsumer {
public:
  explicit FirstError(const RewriteContext &Ctx) : Ctx(Ctx) {}

  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Message = std::string(Text);
    if (!Info.hasSourceManager() || Info.getLocation().isInvalid())
      return;
    PresumedLoc Loc = Info.getSourceManager().getPresumedLoc(
        Info.getSourceManager().getFileLoc(Info.getLocation()));
    if (Loc.isValid())
      Where =
          Ctx.relative(realPathOf(Loc.getFilename())) + ":" + std::to_string(Loc.getLine()) + ": ";
  }

  std::string Message, Where;

private:
  const RewriteContext &Ctx;
};

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(ParseLocations &Locs, const std::vector<RegistrationExpansion> &Registrations,
                  ParseRecord &Record)
      : Locs(Locs), Registrations(Registrations), Record(Record) {}

  /// Keeps the file-scope declarations written in ported files, while they
  /// are fresh: the passes then never walk the toolkit's headers.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (Locs.expansionFile(D->getLocation()) || Locs.expansionFile(D->getBeginLoc()) ||
          Locs.expansionFile(D->getEndLoc()))
        TopLevel.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &AST) override {
    WrapPolicy Wrap(Locs);
    Wrap.keepInstantiatingFilesGlobal(TopLevel);
    renameNamespaces(AST, TopLevel, Locs, Wrap);
    collectTopLevelItems(TopLevel, Locs, Wrap);
    findDefinitions(TopLevel, Locs, Registrations);
    Record.Completed = true;
    const SourceManager &SM = AST.getSourceManager();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End; ++It)
      Record.InputFiles.push_back(inputPathOf(It->first, SM));
  }

  bool shouldSkipFunctionBody(Decl *D) override { return !Locs.expansionFile(D->getLocation()); }

private:
  ParseLocations &Locs;
  const std::vector<RegistrationExpansion> &Registrations;
  ParseRecord &Record;
  std::vector<Decl *> TopLevel;
};

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(const RewriteContext &Ctx, ParseRecord &Record) : Ctx(Ctx), Record(Record) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getFrontendOpts().SkipFunctionBodies = true;
    Locs = std::make_unique<ParseLocations>(CI.getSourceManager(), CI.getLangOpts(), Ctx, Record);
    Preprocessor &PP = CI.getPreprocessor();
    // A missing optional header must not end the parse.
    PP.SetSuppressIncludeNotFoundError(true);
    PP.addPPCallbacks(std::make_unique<CoverageRecorder>(*Locs));
    PP.addPPCallbacks(std::make_unique<IncludeRewriter>(*Locs));
    PP.addPPCallbacks(std::make_unique<RegistrationRecorder>(*Locs, Registrations));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<RewriteConsumer>(*Locs, Registrations, Record);
  }

private:
  const RewriteContext &Ctx;
  ParseRecord &Record;
  std::unique_ptr<ParseLocations> Locs;
  std::vector<RegistrationExpansion> Registrations;
};

} // namespace

analyze::ParseRequest parseRequestOf(const RewriteContext &Ctx, const ParseJob &Job) {
  analyze::ParseRequest Request;
  Request.MainFile = Job.MainFile;
  Request.SourceRoot = Ctx.sourceRoot();
  Request.Side = Job.Side;
  Request.GpuArch = Ctx.request().GpuArch;
  Request.Flags = Job.Flags;
  Request.Directory = Ctx.sourceRoot();
  return Request;
}

namespace {

ParseRecord parseOnce(const RewriteContext &Ctx, const ParseJob &Job,
                      const analyze::ParseRequest &Request) {
  ParseRecord Record;
  Record.TU = Job.Name;
  Record.Side = analyze::toString(Job.Side);
  Record.Flags = Job.Flags;
  auto Overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  if (!Job.ProbeText.empty()) {
    auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    Memory->addFile(Job.MainFile, 0, llvm::MemoryBuffer::getMemBufferCopy(Job.ProbeText));
    Overlay->pushOverlay(Memory);
  }
  FileSystemOptions FSOptions;
  FSOptions.WorkingDir = Ctx.sourceRoot();
  llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(FSOptions, Overlay));
  FirstError Errors(Ctx);
  tooling::ToolInvocation Invocation(analyze::commandLineWithPreamble(Request),
                                     std::make_unique<RewriteAction>(Ctx, Record), Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  Invocation.run();
  Record.HadErrors = !Errors.Message.empty();
  if (Record.Completed && Record.HadErrors)
    Record.addIssue(issue_id::ParseErrors, Job.Name, 0,
                    "the " + Record.Side + " parse reported errors (first: " + Errors.Where +
                        Errors.Message + "); code Clang could not make sense of may be missed",
                    false);
  // The cache entry depends on the files read: the preamble's headers, read
  // through the PCH, count; the probe's text is in the entry's key instead.
  Record.InputFiles.insert(Record.InputFiles.end(), Request.PreambleInputs.begin(),
                           Request.PreambleInputs.end());
  if (!Request.PreambleHeader.empty())
    std::erase(Record.InputFiles, realPathOf(Request.PreambleHeader));
  if (!Job.ProbeText.empty())
    std::erase(Record.InputFiles, realPathOf(Job.MainFile));
  llvm::sort(Record.InputFiles);
  Record.InputFiles.erase(llvm::unique(Record.InputFiles), Record.InputFiles.end());
  return Record;
}

} // namespace

ParseRecord runParse(const RewriteContext &Ctx, const ParseJob &Job,
                     const analyze::ParseRequest &Request) {
  ParseRecord Record = parseOnce(Ctx, Job, Request);
  if (Request.PreamblePch.empty() || (Record.Completed && !Record.HadErrors))
    return Record;
  analyze::ParseRequest Plain = Request;
  Plain.PreamblePch.clear();
  Plain.PreambleHeader.clear();
  Plain.PreambleInputs.clear();
  return parseOnce(Ctx, Job, Plain);
}

} // namespace opmig::migrate
