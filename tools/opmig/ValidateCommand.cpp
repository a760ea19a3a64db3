//===- ValidateCommand.cpp - `opmig validate` -----------------------------===//
//
//   opmig validate --target path/to/cache-dit --domain attn
//   opmig validate --target . --domain sample_ops --layers build,import --format json
//   opmig validate --target . --domain attn --arch "9.0a;10.0" --require-gpu --format junit -o
//   v.xml
//   opmig validate --target . --domain attn --source ../upstream --layers diff,perf
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "ExitCodes.h"
#include "OutputFile.h"
#include "opmig/support/Errors.h"
#include "opmig/support/ValidationSpec.h"
#include "opmig/validate/Layers.h"
#include "opmig/validate/ReportRenderers.h"
#include "opmig/validate/Validate.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

namespace {

struct ValidateArgs {
  validate::ValidateOptions Options;
  std::string Layers;
  std::string Format = "text";
  std::string Output = "-";
  bool NoBuild = false;
  std::string UpstreamFlags;
  InputSpellings Spellings;
};

std::string render(const validate::ValidationReport &Report, const std::string &Format) {
  if (Format == "json")
    return validate::renderValidationJson(Report);
  if (Format == "junit")
    return validate::renderValidationJUnit(Report);
  return validate::renderValidationText(Report);
}

int runValidateCommand(const ValidateArgs &Args) {
  validate::ValidateOptions Options = Args.Options;
  if (!Args.Layers.empty()) {
    llvm::Expected<std::vector<std::string>> Layers = validate::parseLayerList(Args.Layers);
    if (!Layers)
      return reportError(inputError("--layers: ", llvm::toString(Layers.takeError())),
                         Args.Spellings);
    Options.Layers = std::move(*Layers);
  }
  Options.Build = !Args.NoBuild;
  llvm::SmallVector<llvm::StringRef> Flags;
  llvm::SplitString(Args.UpstreamFlags, Flags);
  for (llvm::StringRef Flag : Flags)
    Options.UpstreamFlags.push_back(Flag.str());
  Options.ArchEnv = {llvm::sys::Process::GetEnv("CACHE_DIT_CUDA_ARCH_LIST").value_or(""),
                     llvm::sys::Process::GetEnv("TORCH_CUDA_ARCH_LIST").value_or("")};
  Options.Progress = [](llvm::StringRef Line) {
    llvm::errs() << "opmig validate: " << Line << "\n";
  };
  llvm::Expected<validate::ValidationReport> Report = validate::validateDomain(Options);
  if (!Report)
    return reportError(Report.takeError(), Args.Spellings);
  if (llvm::Error E = writeOutput(Args.Output, render(*Report, Args.Format)))
    return reportError(std::move(E), Args.Spellings);
  return Report->passed() ? ExitSuccess : ExitProblemsFound;
}

std::string layerHelp() {
  std::vector<std::string> Lines;
  for (const validate::LayerInfo &L : validate::allLayers())
    Lines.push_back(std::string("  ") + L.Name + ": " + L.Summary +
                    (L.NeedsGpu ? " (needs a GPU)" : ""));
  return llvm::join(Lines, "\n");
}

} // namespace

CommandRunner registerValidateCommand(CLI::App &App) {
  auto Args = std::make_shared<ValidateArgs>();
  validate::ValidateOptions &O = Args->Options;
  CLI::App *Sub =
      App.add_subcommand("validate", "build the migrated kernels and prove them in layers");
  Sub->footer("Layers, in order:\n" + layerHelp() +
              "\nExit status: 0 no layer failed, 1 a layer failed (a layer named in --layers, or a "
              "GPU layer under --require-gpu, that was skipped counts as failed), 2 bad usage or "
              "input (an unknown layer in --layers included), 3 internal "
              "error. Builds are kept in $XDG_CACHE_HOME/opmig/validate. Details: "
              "docs/user-guide.md.");
  Sub->add_option("--target", O.Target, "root of the target repository")->required();
  Sub->add_option("--domain", O.Domain, "the migrated domain")->required();
  Sub->add_option("--profile", O.Profile,
                  "the profile the domain was migrated with (default: its manifest's)");
  Args->Spellings.flag(validate::inputs::Layers,
                       Sub->add_option("--layers", Args->Layers,
                                       "comma-separated layers to run (default: all; the build "
                                       "runs whenever import is asked)"));
  Sub->add_option("--arch", O.ArchList,
                  "CUDA archs to build for, e.g. \"9.0a;8.9\" (default: CACHE_DIT_CUDA_ARCH_LIST "
                  "for cache-dit, TORCH_CUDA_ARCH_LIST, else 9.0a)");
  Sub->add_flag("--no-build", Args->NoBuild,
                "never build: use an up-to-date build from the cache, else skip what needs one");
  Sub->add_flag("--require-gpu", O.RequireGpu,
                "fail, instead of skipping, a layer that needs a GPU this machine lacks");
  Sub->add_option("--spec", O.SpecFile,
                  "the validation spec, JSON or YAML (default: " +
                      std::string(ValidationSpecFileName) + " beside the domain's manifest)");
  Args->Spellings.flag(
      validate::inputs::Source,
      Sub->add_option("--source", O.Source,
                      "the upstream tree the domain was migrated from: the diff and perf layers "
                      "build its closure unchanged and compare with it (on by default when "
                      "given)"));
  Sub->add_option("--upstream-flags", Args->UpstreamFlags,
                  "code-generation flags of the upstream build that its setup.py or "
                  "CMakeLists.txt do not spell out, e.g. \"-O3 --use_fast_math\"");
  Sub->add_option("--timeout", O.TimeoutSeconds,
                  "seconds each child process of a layer's case may run")
      ->default_val(120)
      ->check(CLI::PositiveNumber);
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json", "junit"}))
      ->default_str("text");
  Sub->add_option("-o,--output", Args->Output, "write the report here instead of stdout");
  Sub->add_option("-j,--jobs", O.Jobs, "parallel compile jobs (default: one per core)");
  Sub->add_option("--cuda-path", O.CudaPath,
                  "the CUDA toolkit (default: $CUDA_HOME, else /usr/local/cuda)");
  return [Args](const std::vector<std::string> &) { return runValidateCommand(*Args); };
}

} // namespace opmig
