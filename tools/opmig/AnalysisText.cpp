#include "AnalysisRenderers.h"
#include "opmig/report/FindingText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

using namespace analyze;

std::string renderText(const AnalysisResult &R, bool Verbose) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (const ResolvedEntry &E : R.Entries) {
    OS << "entry " << E.Requested << " -> " << E.Function << " (" << E.Loc.File << ":" << E.Loc.Line
       << ", via " << E.Via << ")\n";
    for (const Location &Reg : E.RegisteredAt)
      OS << "  registered at " << Reg.File << ":" << Reg.Line << "\n";
  }
  OS << "\nneeded files (" << R.Files.size() << "):\n";
  for (const ClosureFile &F : R.Files) {
    OS << "  " << llvm::left_justify(toString(F.Role), 12) << " " << F.Path;
    if (!F.Symbols.empty())
      OS << "  [" << F.Symbols.size() << " symbol" << (F.Symbols.size() == 1 ? "" : "s") << "]";
    if (!F.Instantiates.empty())
      OS << "  [provides " << llvm::join(F.Provides, ", ") << "]";
    if (F.Symbols.empty() && F.Instantiates.empty() && !F.IncludedBy.empty())
      OS << "  [included by " << llvm::join(F.IncludedBy, ", ") << "]";
    OS << "\n";
    for (const DroppedInclude &D : F.DroppedIncludes)
      OS << "      line " << D.Line << ": #include " << D.Spelling
         << " goes with the siblings (only they use " << D.File << ")\n";
    if (Verbose)
      for (const std::string &Sym : F.Symbols)
        OS << "      " << Sym << "\n";
  }
  OS << "\nleft behind (" << R.LeftBehind.size() << "):\n";
  for (const std::string &Path : R.LeftBehind)
    OS << "  " << Path << "\n";
  OS << "\nexternal includes (" << R.External.size() << "):\n";
  for (const ExternalInclude &E : R.External)
    OS << "  " << llvm::left_justify(toString(E.Class), 12) << " " << E.Spelling
       << (E.Optional ? "  (optional, __has_include)" : "") << "\n";
  if (!R.Unresolved.empty()) {
    OS << "\nunresolved (" << R.Unresolved.size() << "):\n";
    for (const ClosureSymbol &S : R.Unresolved)
      OS << "  " << S.Name << " (declared " << S.Loc.File << ":" << S.Loc.Line << ")\n";
  }
  if (!R.Siblings.empty()) {
    OS << "\nsibling definitions in copied files:\n";
    for (const auto &[File, List] : R.Siblings)
      for (const SiblingDefinition &S : List) {
        OS << "  " << File << ":" << S.Loc.Line << " " << S.Name;
        if (!S.MissingDependencies.empty())
          OS << "  needs " << llvm::join(S.MissingDependencies, ", ") << " (not in closure)";
        if (!S.WouldNeed.empty())
          OS << "  would bring " << llvm::join(S.WouldNeed, ", ");
        OS << "\n";
      }
  }
  OS << "\nlinks as copied: "
     << (R.isPartial()     ? "unknown (partial analysis)"
         : R.LinksAsCopied ? "yes"
                           : "no")
     << "\n";
  if (!R.isPartial() && !R.LinksAsCopied && R.LinksAfterSlicing)
    OS << "links once the siblings are left out, as opmig migrate leaves them out: yes\n";
  if (R.Verify.Ran) {
    OS << "verify: " << (R.Verify.passed() ? "passed" : "FAILED")
       << " (compiles: " << (R.Verify.Compiles ? "yes" : "no")
       << ", links: " << (R.Verify.Links ? "yes" : "no") << "; built with " << R.Verify.Compiler
       << (R.Verify.CompilerNote.empty() ? "" : " (" + R.Verify.CompilerNote + ")") << ")\n";
    for (const std::string &Failure : R.Verify.CompileFailures)
      OS << "  compile: " << Failure << "\n";
    for (const std::string &Symbol : R.Verify.UndefinedSymbols)
      OS << "  undefined: " << Symbol << "\n";
    if (!R.Verify.LinkedAgainst.empty())
      OS << "  undefined symbols resolved against " << R.Verify.LinkedAgainst << "\n";
    for (const std::string &File : R.Verify.UnneededFiles)
      OS << "  not needed: " << File << "\n";
    if (!R.Verify.ScratchDir.empty())
      OS << "  scratch copy kept in " << R.Verify.ScratchDir << "\n";
  }
  std::vector<std::string> ClangOnly;
  for (const NvccJudgement &J : R.NvccJudged)
    if (J.Accepted)
      ClangOnly.push_back(J.TU);
  if (!ClangOnly.empty())
    OS << "\nClang rejects, nvcc compiles (" << ClangOnly.size()
       << " TUs; their Clang errors are warnings): " << llvm::join(ClangOnly, ", ") << "\n";
  if (R.isPartial()) {
    OS << "\nPARTIAL result:\n";
    for (const std::string &Reason : R.PartialReasons)
      OS << "  " << Reason << "\n";
  }
  // The parses' errors are summed up above, as the reasons of a partial result.
  for (const Finding &F : R.Diagnostics)
    if (F.Id != finding_id::HostParseError && F.Id != finding_id::DeviceParseError)
      OS << report::renderFindingText(F);
  if (Verbose) {
    if (!R.Torch.IncludeDirs.empty())
      OS << "\ntorch: " << (R.Torch.Version.empty() ? "unknown version" : R.Torch.Version) << " at "
         << R.Torch.IncludeDirs.front()
         << (R.Torch.CxxStandard
                 ? " (its headers require C++" + std::to_string(R.Torch.CxxStandard) + ")"
                 : "")
         << "\n";
    else
      OS << "\ntorch: none found (neither --torch-include nor an installed torch package)\n";
    if (!R.InferredFlags.empty())
      OS << "inferred flags: " << llvm::join(R.InferredFlags, " ") << "\n";
    if (!R.InferredFrom.empty())
      OS << "  read from the upstream build: " << llvm::join(R.InferredFrom, ", ") << "\n";
    OS << "\nstats: " << R.Stats.TUsParsed << " of " << R.Stats.TUsInTree << " TUs parsed ("
       << R.Stats.ParsesRun << " parses run, " << R.Stats.ParsesCached << " from cache, "
       << R.Stats.ParsesWithPreamble << " with a shared preamble)\n";
    for (const std::string &Note : R.Stats.Preambles)
      OS << "  " << Note << "\n";
    for (const std::string &Note : R.Stats.Concurrency)
      OS << "  " << Note << "\n";
    for (const StageTime &Stage : R.Stats.Stages)
      OS << "  " << llvm::left_justify(Stage.Stage, 8) << llvm::format("%.3f s", Stage.Seconds)
         << "\n";
  }
  return Text;
}

} // namespace opmig
