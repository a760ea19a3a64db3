#include "AnalysisOptions.h"

#include "opmig/analyze/CompileFlags.h"
#include "opmig/analyze/FactsCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace opmig {

namespace {

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

} // namespace

void addAnalysisOptions(CLI::App &Sub, AnalysisFlags &Flags, InputSpellings &Spellings) {
  analyze::AnalyzeOptions &O = Flags.Options;
  Spellings.flag(
      analyze::inputs::SourceRoot,
      Sub.add_option("--source", O.SourceRoot, "root of the upstream source tree")->required());
  Spellings.flag(analyze::inputs::Entries,
                 Sub.add_option("--entry", O.Entries,
                                "entry point: qualified or unqualified C++ function, or registered "
                                "op name; repeat for several")
                     ->required()
                     // One value per occurrence: `--entry a --entry b`.
                     ->allow_extra_args(false));
  addToolchainOptions(Sub, Flags, Spellings);
}

void addToolchainOptions(CLI::App &Sub, AnalysisFlags &Flags, InputSpellings &Spellings) {
  analyze::AnalyzeOptions &O = Flags.Options;
  Spellings.flag(
      analyze::inputs::BuildDir,
      Sub.add_option("-p,--build-dir", O.BuildDir, "directory holding compile_commands.json"));
  Sub.add_option("-j,--jobs", O.Jobs, "parallel parses (default: one per core)");
  Sub.add_option("--cache-dir", O.CacheDir,
                 "per-TU result cache (default: $XDG_CACHE_HOME/opmig/analyze)");
  Sub.add_flag("--no-cache", Flags.NoCache, "neither read nor write the cache");
  Spellings.flag(analyze::inputs::CudaPath,
                 Sub.add_option("--cuda-path", O.CudaPath,
                                "CUDA toolkit root (default: $CUDA_HOME, else /usr/local/cuda)"));
  Spellings.flag(analyze::inputs::TorchIncludeDirs,
                 Sub.add_option("--torch-include", O.TorchIncludeDirs,
                                "torch include directory (default: found from an installed torch)")
                     ->allow_extra_args(false));
  Spellings.flag(analyze::inputs::GpuArch,
                 Sub.add_option("--gpu-arch", O.GpuArch,
                                "device side to parse, e.g. sm_90a (default: the database's, else "
                                "sm_90)"));
  Sub.add_flag("--no-nvcc", Flags.NoNvcc,
               "Clang alone: its errors make the analysis partial even where nvcc compiles the "
               "TU, and --verify builds with Clang");
  Sub.add_flag("--no-preamble", Flags.NoPreamble,
               "parse every TU on its own, without the shared precompiled preamble of the "
               "external includes TUs start with (also OPMIG_NO_PREAMBLE=1)");
  Sub.add_flag("-q,--quiet", Flags.Quiet, "no progress or warnings on stderr");
  Spellings.add(analyze::inputs::ExtraArgs, "after --");
}

void finishAnalysisOptions(AnalysisFlags &Flags, const std::vector<std::string> &PassThrough) {
  analyze::AnalyzeOptions &Options = Flags.Options;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::vector<std::string> Argv = {"clang++"};
  Argv.insert(Argv.end(), PassThrough.begin(), PassThrough.end());
  Options.ExtraArgs = analyze::normalizeCompileCommand(Argv, std::string(Cwd)).Args;
  if (Flags.NoCache)
    Options.CacheDir.clear();
  else if (Options.CacheDir.empty())
    Options.CacheDir = analyze::defaultCacheDir();
  // The preamble builds run Clang on files in the cache, from elsewhere.
  if (!Options.CacheDir.empty()) {
    llvm::SmallString<256> Absolute(Options.CacheDir);
    llvm::sys::fs::make_absolute(Absolute);
    Options.CacheDir = std::string(Absolute);
  }
  Options.JudgeWithNvcc = !Flags.NoNvcc;
  auto NoPreambleEnv = llvm::sys::Process::GetEnv("OPMIG_NO_PREAMBLE");
  Options.UsePreamble = !Flags.NoPreamble && !(NoPreambleEnv && *NoPreambleEnv == "1");
  Options.OnProgress = progressPrinter(Flags.Quiet);
}

} // namespace opmig
