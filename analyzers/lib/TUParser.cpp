#include "opmig/analyze/TUParser.h"

#include "ASTFactsCollector.h"
#include "PPFactsRecorder.h"
#include "TreeLocations.h"
#include "opmig/support/SourceFiles.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

namespace opmig::analyze {

using namespace clang;

namespace {

/// Keeps the errors of a parse (warnings are off: `-w`); the AST Clang
/// recovered after an error is still used, but the result is then partial.
class ErrorCollector : public DiagnosticConsumer {
public:
  explicit ErrorCollector(TUFacts &Facts) : Facts(Facts) {}

  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || Facts.Errors.size() >= MaxKept)
      return;
    ParseErrorFact Fact;
    llvm::SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    Fact.Message = std::string(Message);
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const SourceManager &SM = Info.getSourceManager();
      PresumedLoc Loc = SM.getPresumedLoc(SM.getFileLoc(Info.getLocation()));
      if (Loc.isValid()) {
        Fact.File = realPathOf(Loc.getFilename());
        Fact.Line = Loc.getLine();
      }
    }
    Facts.Errors.push_back(std::move(Fact));
  }

private:
  static constexpr size_t MaxKept = 50;
  TUFacts &Facts;
};

class FactsConsumer : public ASTConsumer {
public:
  FactsConsumer(TreeLocations &Locs, PreprocessorFacts &PPFacts, TUFacts &Facts, bool WithPreamble)
      : Locs(Locs), PPFacts(PPFacts), Facts(Facts), WithPreamble(WithPreamble) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    if (WithPreamble)
      Parsed.insert(Parsed.end(), Group.begin(), Group.end());
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    // The preamble holds external headers only, whose declarations yield no
    // facts: walking what this parse read itself keeps them deserialized.
    if (WithPreamble)
      Ctx.setTraversalScope(Parsed);
    collectASTFacts(Ctx, Locs, PPFacts, Facts);
    const SourceManager &SM = Ctx.getSourceManager();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End; ++It)
      Facts.InputFiles.push_back(realPathOf(It->first.getName()));
  }

private:
  TreeLocations &Locs;
  PreprocessorFacts &PPFacts;
  TUFacts &Facts;
  bool WithPreamble;
  std::vector<Decl *> Parsed;
};

class FactsAction : public ASTFrontendAction {
public:
  FactsAction(const ParseRequest &Request, TUFacts &Facts) : Request(Request), Facts(Facts) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Locs = std::make_unique<TreeLocations>(CI.getSourceManager(),
                                           TreeScope{Request.SourceRoot, Request.ExternalDirs});
    Preprocessor &PP = CI.getPreprocessor();
    // An absent optional header (a submodule not checked out) must not stop
    // the analysis: it is reported as a missing external instead.
    PP.SetSuppressIncludeNotFoundError(true);
    PP.addPPCallbacks(std::make_unique<PPFactsRecorder>(PP, *Locs, Facts, PPFacts));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<FactsConsumer>(*Locs, PPFacts, Facts, !Request.PreamblePch.empty());
  }

private:
  const ParseRequest &Request;
  TUFacts &Facts;
  PreprocessorFacts PPFacts;
  std::unique_ptr<TreeLocations> Locs;
};

} // namespace

std::vector<std::string> parseCommandLine(const ParseRequest &Request) {
  std::vector<std::string> Args = {"clang++"};
  // The side is chosen here: architectures named by a compile database would
  // turn a device-only parse into several jobs.
  for (const std::string &Flag : Request.Flags)
    if (!llvm::StringRef(Flag).starts_with("--cuda-gpu-arch=") &&
        !llvm::StringRef(Flag).starts_with("--offload-arch="))
      Args.push_back(Flag);
  if (isCudaSource(Request.MainFile)) {
    Args.insert(Args.end(), {"-x", "cuda"});
    if (Request.Side == ParseSide::Host)
      Args.push_back("--cuda-host-only");
    else
      Args.insert(Args.end(), {"--cuda-device-only", "--cuda-gpu-arch=" + Request.GpuArch});
  } else {
    Args.insert(Args.end(), {"-x", "c++"});
  }
  // Errors reach the caller through the diagnostic consumer; no summary
  // line on stderr.
  Args.push_back("-fno-caret-diagnostics");
  Args.push_back("-fsyntax-only");
  Args.push_back(Request.MainFile);
  return Args;
}

namespace {

TUFacts parseOnce(const ParseRequest &Request) {
  TUFacts Facts;
  Facts.MainFile = Request.MainFile;
  Facts.Side = Request.Side;
  ErrorCollector Errors(Facts);
  FileSystemOptions FSOptions;
  FSOptions.WorkingDir = Request.Directory;
  llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(FSOptions));
  std::vector<std::string> Args = parseCommandLine(Request);
  if (!Request.PreamblePch.empty())
    Args.insert(Args.end() - 1, {"-include-pch", Request.PreamblePch});
  tooling::ToolInvocation Invocation(Args, std::make_unique<FactsAction>(Request, Facts),
                                     Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  Invocation.run();
  // An invocation that never reached the AST read no input at all.
  Facts.Completed = !Facts.InputFiles.empty();
  // The preamble's headers were read, if not through this parse's own
  // source manager; a plain parse lists them too.
  Facts.InputFiles.insert(Facts.InputFiles.end(), Request.PreambleInputs.begin(),
                          Request.PreambleInputs.end());
  if (!Request.PreambleHeader.empty())
    std::erase(Facts.InputFiles, realPathOf(Request.PreambleHeader));
  llvm::sort(Facts.InputFiles);
  Facts.InputFiles.erase(llvm::unique(Facts.InputFiles), Facts.InputFiles.end());
  return Facts;
}

} // namespace

TUFacts parseTranslationUnit(const ParseRequest &Request) {
  TUFacts Facts = parseOnce(Request);
  if (Request.PreamblePch.empty() || (Facts.Completed && Facts.Errors.empty()))
    return Facts;
  // Errors with the preamble may be the preamble's (a header changed under
  // it): only a plain parse's errors count.
  ParseRequest Plain = Request;
  Plain.PreamblePch.clear();
  Plain.PreambleHeader.clear();
  Plain.PreambleInputs.clear();
  return parseOnce(Plain);
}

} // namespace opmig::analyze
