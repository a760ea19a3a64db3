#include "AnalysisOptions.h"
#include "AnalysisRenderers.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "OutputFile.h"
#include "opmig/analyze/Analyzer.h"
#include "opmig/analyze/ClosureVerifier.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/support/JsonText.h"
#include "opmig/support/NvccCheck.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

namespace {

struct AnalyzeArgs {
  AnalysisFlags Analysis;
  std::string Format = "text";
  std::string Output = "-";
  bool Verify = false, VerifyMinimal = false, KeepScratch = false;
  bool Verbose = false;
  InputSpellings Spellings;
};

int runAnalyze(AnalyzeArgs &Args, const std::vector<std::string> &Extra) {
  finishAnalysisOptions(Args.Analysis, Extra);
  analyze::AnalyzeOptions &Options = Args.Analysis.Options;
  auto Result = analyze::analyzeClosure(Options);
  if (!Result)
    return reportError(Result.takeError(), Args.Spellings);
  if (Args.Verify || Args.VerifyMinimal) {
    analyze::VerifyOptions Verify;
    Verify.Minimal = Args.VerifyMinimal;
    Verify.KeepScratch = Args.KeepScratch;
    Verify.Jobs = Options.Jobs;
    Verify.ObjectCacheDir = analyze::objectCacheDir(Options.CacheDir);
    if (Options.JudgeWithNvcc)
      Verify.Nvcc = opmig::findNvcc(Result->CudaPath);
    Verify.ClangBecause = !Options.JudgeWithNvcc ? "--no-nvcc"
                                                 : "no nvcc (neither <cuda-path>/bin/nvcc nor on "
                                                   "PATH)";
    llvm::Expected<analyze::VerifyReport> Report = analyze::verifyClosure(*Result, Verify);
    if (!Report)
      return reportError(Report.takeError(), Args.Spellings);
    Result->Verify = std::move(*Report);
  }
  std::string Rendered;
  if (Args.Format == "json")
    Rendered = dumpJson(renderJson(*Result, Options.SourceRoot), 2) + "\n";
  else if (Args.Format == "dot")
    Rendered = renderDot(*Result);
  else
    Rendered = renderText(*Result, Args.Verbose);
  if (llvm::Error E = writeOutput(Args.Output, Rendered))
    return reportError(std::move(E), Args.Spellings);
  if (Result->isPartial() && !Args.Analysis.Quiet)
    llvm::WithColor::warning(llvm::errs(), "opmig")
        << "partial result: Clang rejected part of the code (see partial_reasons)\n";
  if (Result->Verify.Ran && !Result->Verify.passed())
    return ExitProblemsFound;
  return ExitSuccess;
}

} // namespace

CommandRunner registerAnalyzeCommand(CLI::App &App) {
  auto Args = std::make_shared<AnalyzeArgs>();
  CLI::App *Sub = App.add_subcommand(
      "analyze", "compute the minimal native closure of an operator in an upstream tree");
  Sub->footer("Arguments after `--` are passed to every Clang parse, e.g. `-- -DWITH_FP8=1`.");
  addAnalysisOptions(*Sub, Args->Analysis, Args->Spellings);
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  Sub->add_option("-o,--output", Args->Output, "write the result here (default: stdout)");
  Sub->add_flag("--verify", Args->Verify,
                "compile (with nvcc, else Clang) and link the closure alone in a scratch "
                "directory");
  Sub->add_flag("--verify-minimal", Args->VerifyMinimal,
                "like --verify, then drop each file in turn and report unneeded ones");
  Sub->add_flag("--keep-scratch", Args->KeepScratch, "keep --verify's scratch directory");
  Sub->add_flag("-v,--verbose", Args->Verbose, "text output lists symbols, flags and timings");
  return [Args](const std::vector<std::string> &Extra) { return runAnalyze(*Args, Extra); };
}

} // namespace opmig
