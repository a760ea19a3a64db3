#include "AnalysisRenderers.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "OutputFile.h"
#include "opmig/analyze/Analyzer.h"
#include "opmig/analyze/ClosureVerifier.h"
#include "opmig/analyze/CompileFlags.h"
#include "opmig/analyze/FactsCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace opmig {

namespace {

struct AnalyzeArgs {
  analyze::AnalyzeOptions Options;
  std::string Format = "text";
  std::string Output = "-";
  bool Verify = false, VerifyMinimal = false, KeepScratch = false;
  bool NoCache = false, Verbose = false, Quiet = false;
};

/// Shows `[done/total] file` on a terminal once a run takes longer than a
/// moment; silent otherwise, so piped output stays clean.
std::function<void(const analyze::Progress &)> progressPrinter(bool Quiet) {
  if (Quiet || !llvm::sys::Process::StandardErrIsDisplayed())
    return nullptr;
  auto Start = std::chrono::steady_clock::now();
  return [Start](const analyze::Progress &P) {
    if (std::chrono::steady_clock::now() - Start < std::chrono::milliseconds(500))
      return;
    llvm::errs() << "\r\033[K[" << P.Done << "/" << P.Total << "] parsed " << P.Current;
    if (P.Done == P.Total)
      llvm::errs() << "\r\033[K";
  };
}

int runAnalyze(AnalyzeArgs &Args, const std::vector<std::string> &Extra) {
  analyze::AnalyzeOptions &Options = Args.Options;
  // Relative include paths after `--` are meant from here, not from the
  // directory each TU is compiled in.
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::vector<std::string> Argv = {"clang++"};
  Argv.insert(Argv.end(), Extra.begin(), Extra.end());
  Options.ExtraArgs = analyze::normalizeCompileCommand(Argv, std::string(Cwd)).Args;
  if (!Args.NoCache && Options.CacheDir.empty())
    Options.CacheDir = analyze::defaultCacheDir();
  if (Args.NoCache)
    Options.CacheDir.clear();
  Options.OnProgress = progressPrinter(Args.Quiet);
  auto Result = analyze::analyzeClosure(Options);
  if (!Result)
    return reportError(Result.takeError());
  if (Args.Verify || Args.VerifyMinimal) {
    analyze::VerifyOptions Verify{Args.VerifyMinimal, Args.KeepScratch, Options.Jobs};
    if (llvm::Error E = analyze::verifyClosure(*Result, Verify))
      return reportError(std::move(E));
  }
  std::string Rendered;
  if (Args.Format == "json")
    Rendered = renderJson(*Result, Options.SourceRoot).dump(2) + "\n";
  else if (Args.Format == "dot")
    Rendered = renderDot(*Result);
  else
    Rendered = renderText(*Result, Args.Verbose);
  if (llvm::Error E = writeOutput(Args.Output, Rendered))
    return reportError(std::move(E));
  if (Result->isPartial() && !Args.Quiet)
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
  analyze::AnalyzeOptions &O = Args->Options;
  Sub->add_option("--source", O.SourceRoot, "root of the upstream source tree")->required();
  Sub->add_option("--entry", O.Entries,
                  "entry point: qualified or unqualified C++ function, or registered op name; "
                  "repeat for several")
      ->required()
      ->allow_extra_args(false); // One value per occurrence: `--entry a --entry b`.
  Sub->add_option("-p,--build-dir", O.BuildDir, "directory holding compile_commands.json");
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  Sub->add_option("-o,--output", Args->Output, "write the result here (default: stdout)");
  Sub->add_flag("--verify", Args->Verify,
                "compile and link the closure alone in a scratch directory");
  Sub->add_flag("--verify-minimal", Args->VerifyMinimal,
                "like --verify, then drop each file in turn and report unneeded ones");
  Sub->add_flag("--keep-scratch", Args->KeepScratch, "keep --verify's scratch directory");
  Sub->add_option("-j,--jobs", O.Jobs, "parallel parses (default: one per core)");
  Sub->add_option("--cache-dir", O.CacheDir,
                  "per-TU result cache (default: $XDG_CACHE_HOME/opmig/analyze)");
  Sub->add_flag("--no-cache", Args->NoCache, "neither read nor write the cache");
  Sub->add_option("--cuda-path", O.CudaPath,
                  "CUDA toolkit root (default: $CUDA_HOME, else /usr/local/cuda)");
  Sub->add_option("--torch-include", O.TorchIncludeDirs,
                  "torch include directory (default: found from an installed torch)")
      ->allow_extra_args(false);
  Sub->add_option("--gpu-arch", O.GpuArch,
                  "device side to parse, e.g. sm_90a (default: the database's, else sm_90)");
  Sub->add_flag("-v,--verbose", Args->Verbose, "text output lists symbols, flags and timings");
  Sub->add_flag("-q,--quiet", Args->Quiet, "no progress or warnings on stderr");
  return [Args](const std::vector<std::string> &Extra) { return runAnalyze(*Args, Extra); };
}

} // namespace opmig
