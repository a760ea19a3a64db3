#include "opmig/analyze/Preamble.h"

#include "TreeLocations.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/DependencyDirectivesScanner.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

namespace opmig::analyze {

using namespace clang;
namespace path = llvm::sys::path;

namespace {

/// Whether `Text` holds nothing but whitespace and comments.
bool onlyComments(llvm::StringRef Slice) {
  // The lexer reads up to a terminating NUL, which a slice lacks.
  std::string Text = Slice.str();
  static const LangOptions Opts = [] {
    LangOptions O;
    O.CPlusPlus = O.CPlusPlus11 = true;
    return O;
  }();
  Lexer Lex(SourceLocation(), Opts, Text.data(), Text.data(), Text.data() + Text.size());
  Token Tok;
  Lex.LexFromRawLexer(Tok);
  return Tok.is(tok::eof);
}

/// The include directories of `Flags` a quoted or angled spelling searches,
/// in Clang's order (`-iquote` first for quoted ones, then `-I`, then
/// `-isystem`).
std::vector<std::string> searchDirs(const std::vector<std::string> &Flags, bool Angled) {
  std::vector<std::string> Quote, Plain, System;
  for (size_t I = 0; I < Flags.size(); ++I) {
    llvm::StringRef Arg = Flags[I];
    for (auto [Flag, List] : {std::pair{llvm::StringRef("-iquote"), &Quote},
                              std::pair{llvm::StringRef("-isystem"), &System},
                              std::pair{llvm::StringRef("-I"), &Plain}}) {
      if (!Arg.starts_with(Flag))
        continue;
      llvm::StringRef Dir = Arg.drop_front(Flag.size());
      if (Dir.empty() && I + 1 < Flags.size())
        Dir = Flags[++I];
      List->push_back(Dir.str());
      break;
    }
  }
  std::vector<std::string> Dirs = Angled ? std::vector<std::string>{} : Quote;
  Dirs.insert(Dirs.end(), Plain.begin(), Plain.end());
  Dirs.insert(Dirs.end(), System.begin(), System.end());
  return Dirs;
}

/// Whether the spelling names a file of the tree: the first match in the
/// search order decides; no match at all is a system header.
bool resolvesIntoTree(llvm::StringRef Spelling, bool Angled, const std::string &TUDir,
                      const std::vector<std::string> &Flags, const TreeScope &Scope) {
  // A quoted include looks beside its file first.
  std::vector<std::string> Dirs;
  if (!Angled)
    Dirs.push_back(TUDir);
  llvm::append_range(Dirs, searchDirs(Flags, Angled));
  for (const std::string &Dir : Dirs) {
    llvm::SmallString<256> Candidate(Dir);
    path::append(Candidate, Spelling);
    if (llvm::sys::fs::is_regular_file(Candidate))
      return Scope.contains(realPathOf(Candidate));
  }
  return false;
}

/// Collects the files the PCH build read.
class RecordingPCHAction : public GeneratePCHAction {
public:
  explicit RecordingPCHAction(std::vector<std::string> &Inputs) : Inputs(Inputs) {}

  bool BeginInvocation(CompilerInstance &CI) override {
    // The templates the headers use are instantiated once, in the PCH,
    // instead of at the end of every TU that loads it.
    CI.getLangOpts().PCHInstantiateTemplates = true;
    return GeneratePCHAction::BeginInvocation(CI);
  }
  void EndSourceFileAction() override {
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(), End = SM.fileinfo_end(); It != End; ++It)
      Inputs.push_back(realPathOf(It->first.getName()));
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  std::vector<std::string> &Inputs;
};

class ErrorCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error && First.empty()) {
      llvm::SmallString<128> Message;
      Info.FormatDiagnostic(Message);
      First = std::string(Message);
    }
  }
  std::string First;
};

} // namespace

std::vector<std::string> leadingExternalIncludes(const SourceFile &TU,
                                                 const std::vector<std::string> &Flags,
                                                 const TreeScope &Scope) {
  using namespace dependency_directives_scan;
  llvm::StringRef Content = TU.Content;
  llvm::SmallVector<dependency_directives_scan::Token, 64> Tokens;
  llvm::SmallVector<Directive, 16> Directives;
  std::vector<std::string> Run;
  if (scanSourceForDependencyDirectives(Content, Tokens, Directives))
    return Run;
  std::string TUDir = path::parent_path(TU.Path).str();
  size_t Previous = 0;
  for (const Directive &D : Directives) {
    if (D.Kind != pp_include || D.Tokens.size() < 3 || D.Tokens[2].isNot(tok::header_name))
      break;
    if (!onlyComments(Content.slice(Previous, D.Tokens.front().Offset)))
      break;
    llvm::StringRef Name = Content.substr(D.Tokens[2].Offset, D.Tokens[2].Length);
    bool Angled = Name.front() == '<';
    // Something after the file name (`#include <a.h> // why`) is a comment
    // at most; the next gap check sees anything else.
    if (resolvesIntoTree(Name.drop_front().drop_back(), Angled, TUDir, Flags, Scope))
      break;
    Run.push_back(Name.str());
    Previous = D.Tokens[2].Offset + D.Tokens[2].Length;
  }
  return Run;
}

std::vector<std::string> sharedRun(const std::vector<std::vector<std::string>> &Runs) {
  std::map<std::string, unsigned> FirstCounts;
  for (const auto &Run : Runs)
    if (!Run.empty())
      ++FirstCounts[Run.front()];
  std::string Best;
  unsigned BestCount = 0;
  for (const auto &[First, Count] : FirstCounts)
    if (Count > BestCount)
      std::tie(Best, BestCount) = std::tie(First, Count);
  if (BestCount < 2)
    return {};
  std::vector<std::string> Shared;
  for (const auto &Run : Runs) {
    if (Run.empty() || Run.front() != Best)
      continue;
    if (Shared.empty()) {
      Shared = Run;
      continue;
    }
    size_t Common = 0;
    while (Common < Shared.size() && Common < Run.size() && Shared[Common] == Run[Common])
      ++Common;
    Shared.resize(Common);
  }
  return Shared;
}

bool startsWithRun(const std::vector<std::string> &Run, const std::vector<std::string> &Prefix) {
  return !Prefix.empty() && Run.size() >= Prefix.size() &&
         std::equal(Prefix.begin(), Prefix.end(), Run.begin());
}

bool flagsAllowPreamble(const std::vector<std::string> &Flags) {
  for (llvm::StringRef Flag : Flags)
    if (Flag.starts_with("-include") || Flag.starts_with("-imacros") ||
        Flag.starts_with("--include"))
      return false;
  return true;
}

std::string preambleHeaderText(const std::vector<std::string> &Includes) {
  std::string Text = "// Generated by opmig: the external includes the analysed TUs start with.\n";
  for (const std::string &Include : Includes)
    Text += "#include " + Include + "\n";
  return Text;
}

PreambleBuild buildPreamble(const ParseRequest &Like, const std::string &HeaderPath,
                            const std::string &PchPath) {
  ParseRequest Request = Like;
  Request.MainFile = HeaderPath;
  Request.PreamblePch.clear();
  std::vector<std::string> Args = parseCommandLine(Request);
  // `-S` keeps a device-side command to one compiler job (no ptxas); the
  // action below writes the PCH instead of assembly.
  for (std::string &Arg : Args)
    if (Arg == "-fsyntax-only")
      Arg = "-S";
  Args.insert(Args.end() - 1, {"-o", PchPath});

  PreambleBuild Result;
  ErrorCounter Errors;
  FileSystemOptions FSOptions;
  FSOptions.WorkingDir = Like.Directory;
  llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(FSOptions));
  tooling::ToolInvocation Invocation(Args, std::make_unique<RecordingPCHAction>(Result.InputFiles),
                                     Files.get());
  Invocation.setDiagnosticConsumer(&Errors);
  bool Ran = Invocation.run();
  if (!Errors.First.empty() || !Ran || !llvm::sys::fs::exists(PchPath)) {
    Result.Problem = Errors.First.empty() ? "the Clang frontend could not run" : Errors.First;
    llvm::sys::fs::remove(PchPath);
    return Result;
  }
  TreeScope Scope{Like.SourceRoot, Like.ExternalDirs};
  for (const std::string &Input : Result.InputFiles)
    if (Scope.contains(Input)) {
      Result.Problem = "it reads '" + Input + "', a file of the tree";
      llvm::sys::fs::remove(PchPath);
      return Result;
    }
  std::erase(Result.InputFiles, realPathOf(HeaderPath));
  Result.Built = true;
  return Result;
}

} // namespace opmig::analyze
