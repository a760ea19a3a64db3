//===- ReviewCommand.cpp - `opmig review` and `opmig gate` ----------------===//
//
//   opmig review --target path/to/cache-dit --domain rope --source path/to/upstream
//   opmig review --target . --domain rope --no-compile-check
//   opmig review --target . --domain rope --validation build/validate-rope.json
//   opmig gate                      # .opmig.yaml of the current directory
//   opmig gate path/to/repo --sarif opmig.sarif --junit opmig-junit.xml
//
//===----------------------------------------------------------------------===//

#include "AnalysisOptions.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "GateValidation.h"
#include "OutputFile.h"
#include "opmig/analyze/FactsCache.h"
#include "opmig/audit/AuditReport.h"
#include "opmig/audit/Baseline.h"
#include "opmig/audit/Gate.h"
#include "opmig/audit/GateReport.h"
#include "opmig/audit/Review.h"
#include "opmig/audit/ReviewReport.h"
#include "opmig/audit/RuleLoader.h"
#include "opmig/support/Errors.h"
#include "opmig/validate/Layers.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

namespace opmig {

namespace {

struct GateArgs {
  std::string Root = ".";
  std::string Config; ///< Empty: `<Root>/.opmig.yaml`.
  std::string Sarif, JUnit;
};

/// Writes a report, creating its folder first: CI configs name report
/// folders that a fresh checkout does not have.
llvm::Error writeReport(const std::string &Path, const std::string &Content) {
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (!Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent))
      return inputError("cannot create ", Parent, ": ", EC.message());
  return writeOutput(Path, Content);
}

llvm::Error writeReports(const GateArgs &Args, const audit::GateConfig &Config,
                         const audit::GateResult &Result) {
  // Paths from the command line go where they say; paths from .opmig.yaml,
  // which a pull request may edit, stay under the repository.
  std::string Sarif = Args.Sarif, JUnit = Args.JUnit;
  for (auto [Out, Key, Value] :
       {std::tuple{&Sarif, "sarif", &Config.Sarif}, std::tuple{&JUnit, "junit", &Config.JUnit}}) {
    if (!Out->empty() || Value->empty())
      continue;
    llvm::Expected<std::string> Path = audit::reportPathUnderRoot(Args.Root, *Value, Key);
    if (!Path)
      return inputError(llvm::toString(Path.takeError()), ", or pass --", Key,
                        " to write elsewhere");
    *Out = *Path;
  }
  if (!Sarif.empty())
    if (llvm::Error E = writeReport(Sarif, audit::renderGateSarif(Result, OPMIG_VERSION)))
      return E;
  if (!JUnit.empty())
    if (llvm::Error E = writeReport(JUnit, audit::renderGateJUnit(Result, Config.FailOn)))
      return E;
  return llvm::Error::success();
}

/// The gate takes the audit's and the review's inputs from its config file;
/// a baseline is written by the audit.
InputSpellings gateSpellings(const std::string &ConfigPath) {
  InputSpellings Spellings;
  auto Key = [&](llvm::StringRef Name) { return "`" + Name.str() + ":` in " + ConfigPath; };
  Spellings.add(audit::inputs::Profile, Key("profile"));
  Spellings.add(audit::inputs::BaselinePath, Key("baseline"));
  Spellings.add(audit::inputs::ReviewExclude, Key("exclude"));
  Spellings.add(audit::inputs::ValidationReports, Key("review.validation"));
  Spellings.add(audit::inputs::WriteBaseline, "opmig audit --write-baseline");
  return Spellings;
}

int runGateCommand(const GateArgs &Args, const RulesDir &Rules) {
  if (!llvm::sys::fs::is_directory(Args.Root))
    return reportError(inputError("gate: the repository root '", Args.Root,
                                  "' (the dir argument) is not a directory"),
                       InputSpellings());
  std::string ConfigPath =
      Args.Config.empty() ? audit::pathUnderRoot(Args.Root, ".opmig.yaml") : Args.Config;
  const InputSpellings Spellings = gateSpellings(ConfigPath);
  llvm::Expected<audit::GateConfig> Config = audit::readGateConfig(ConfigPath);
  if (!Config)
    return reportError(Config.takeError(), Spellings);
  if (Config->RunAudit || Config->RunRuleTests)
    if (llvm::Error E = Rules.requireAuditRules(""))
      return reportError(std::move(E), Spellings);
  if (!Config->ValidateLayers.empty())
    if (llvm::Expected<std::vector<std::string>> Layers =
            validate::parseLayerList(llvm::join(Config->ValidateLayers, ","));
        !Layers)
      return reportError(
          inputError(ConfigPath, ": validate.layers: ", llvm::toString(Layers.takeError())),
          Spellings);
  auto ReviewCommand = [&Args](const std::string &Domain) {
    return "opmig review --target " + Args.Root + " --domain " + Domain;
  };
  // The validate reports only feed the reviews of this run.
  llvm::SmallString<128> ReportsDir;
  if (Config->RunValidate)
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("opmig-gate", ReportsDir))
      return reportError(inputError("gate: cannot create a temporary folder: ", EC.message()),
                         Spellings);
  llvm::scope_exit RemoveReports([&] {
    if (!ReportsDir.empty())
      llvm::sys::fs::remove_directories(ReportsDir);
  });
  llvm::Expected<audit::GateResult> Result =
      audit::runGate(*Config, Args.Root, Rules.auditRules(), Rules.layersFile(), ReviewCommand,
                     gateValidation(Args.Root, std::string(ReportsDir)));
  if (!Result)
    return reportError(Result.takeError(), Spellings);
  if (llvm::Error E = writeReports(Args, *Config, *Result))
    return reportError(std::move(E), Spellings);
  // Without the audit, its "0 rules" line would only mislead.
  if (Config->RunAudit || !Result->Combined.Findings.empty())
    llvm::outs() << audit::renderText(Result->Combined);
  llvm::outs() << audit::renderGateSummary(*Result, Config->FailOn);
  return audit::hasFailures(Result->Combined.Findings, Config->FailOn) ? ExitProblemsFound
                                                                       : ExitSuccess;
}

void registerGate(CLI::App &App, const RulesDir &Rules,
                  std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  auto Args = std::make_shared<GateArgs>();
  CLI::App *Sub = App.add_subcommand(
      "gate", "run the checks a repository's .opmig.yaml asks for, as one CI step");
  Sub->footer("Exit status: 0 clean, 1 new problems, 2 bad config or input. Config keys and a "
              "GitHub Actions workflow: docs/ci-integration.md.");
  Sub->add_option("dir", Args->Root, "root of the repository (default: the current directory)");
  Sub->add_option("--config", Args->Config, "the gate config (default: DIR/.opmig.yaml)");
  Sub->add_option("--sarif", Args->Sarif, "write the SARIF log here (overrides `sarif:`)");
  Sub->add_option("--junit", Args->JUnit, "write the JUnit XML here (overrides `junit:`)");
  Out.push_back({Sub, [Args, Rules](const std::vector<std::string> &) {
                   return runGateCommand(*Args, Rules);
                 }});
}

struct ReviewArgs {
  audit::ReviewOptions Options;
  AnalysisFlags Analysis;
  std::vector<std::string> Exclude;
  std::string Format = "text";
  bool NoCompileCheck = false;
  InputSpellings Spellings;
};

/// The build check compiles with the same toolchain options and the same
/// Clang arguments after `--` as the closure's recomputation.
audit::BuildCheckOptions buildCheckOptions(const analyze::AnalyzeOptions &Analysis) {
  audit::BuildCheckOptions Build;
  Build.CudaPath = Analysis.CudaPath;
  Build.TorchIncludeDirs = Analysis.TorchIncludeDirs;
  Build.ExtraArgs = Analysis.ExtraArgs;
  Build.GpuArch = Analysis.GpuArch;
  Build.Jobs = Analysis.Jobs;
  // The objects --verify of `analyze` keeps: a build of this opmig made them.
  Build.ObjectCacheDir = analyze::objectCacheDir(Analysis.CacheDir);
  return Build;
}

/// The review's closure comparison: an analysis of the upstream with the
/// toolchain options and the Clang arguments after `--`.
audit::ClosureFinder closureFinder(const analyze::AnalyzeOptions &Analysis) {
  return [Analysis](
             const std::string &Source,
             const std::vector<std::string> &Entries) -> llvm::Expected<audit::UpstreamClosure> {
    analyze::AnalyzeOptions Options = Analysis;
    Options.SourceRoot = Source;
    Options.Entries = Entries;
    llvm::Expected<analyze::AnalysisResult> Result = analyze::analyzeClosure(Options);
    if (!Result)
      return Result.takeError();
    audit::UpstreamClosure Closure;
    if (Result->isPartial()) {
      Closure.NotComparedBecause = "the analysis of --source was partial (" +
                                   llvm::join(Result->PartialReasons, "; ") +
                                   "); pass the Clang flags the migration used after --";
      return Closure;
    }
    for (const analyze::ClosureFile &F : Result->Files)
      if (F.Role != analyze::FileRole::Registration)
        Closure.Files.insert(F.Path);
    return Closure;
  };
}

std::string renderReview(const audit::ReviewResult &Result, const std::string &Format) {
  if (Format == "json")
    return audit::renderReviewJson(Result);
  if (Format == "sarif")
    return audit::renderReviewSarif(Result, OPMIG_VERSION);
  if (Format == "junit")
    return audit::renderReviewJUnit(Result);
  return audit::renderReviewText(Result);
}

/// The library names the folders it is given; the driver names the options
/// that gave them.
llvm::Error checkReviewFolders(const audit::ReviewOptions &Options) {
  if (!llvm::sys::fs::is_directory(Options.Target))
    return inputError("--target '", Options.Target, "' is not a directory");
  if (!Options.Source.empty() && !llvm::sys::fs::is_directory(Options.Source))
    return inputError("--source '", Options.Source, "' is not a directory");
  return llvm::Error::success();
}

int runReviewCommand(const ReviewArgs &Args, const std::vector<std::string> &PassThrough) {
  audit::ReviewOptions Options = Args.Options;
  if (llvm::Error E = checkReviewFolders(Options))
    return reportError(std::move(E), Args.Spellings);
  AnalysisFlags Analysis = Args.Analysis;
  finishAnalysisOptions(Analysis, PassThrough);
  if (!Options.Source.empty())
    Options.FindClosure = closureFinder(Analysis.Options);
  if (!Args.NoCompileCheck)
    Options.BuildCheck = buildCheckOptions(Analysis.Options);
  for (const std::string &Glob : Args.Exclude) {
    llvm::Expected<audit::PathGlob> Compiled = audit::PathGlob::create(Glob);
    if (!Compiled)
      return reportError(
          inputError("--exclude '", Glob, "': ", llvm::toString(Compiled.takeError())),
          Args.Spellings);
    Options.Exclude.push_back(std::move(*Compiled));
  }
  llvm::Expected<audit::ReviewResult> Result = audit::reviewMigration(Options);
  if (!Result)
    return reportError(Result.takeError(), Args.Spellings);
  llvm::outs() << renderReview(*Result, Args.Format);
  return Result->Outcome == audit::Verdict::Thoughtful ? ExitSuccess : ExitProblemsFound;
}

void registerReview(CLI::App &App, const RulesDir &Rules,
                    std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  auto Args = std::make_shared<ReviewArgs>();
  Args->Options.LayersFile = Rules.layersFile();
  CLI::App *Sub = App.add_subcommand("review", "judge a migrated domain the way a reviewer would");
  Sub->footer("With --source, the closure of the manifest's entries is recomputed from it, parsed "
              "with the toolchain options and the Clang arguments after `--`. Every C++/CUDA TU "
              "of the domain is compiled by nvcc's front end with the flags the manifest records, "
              "torch's headers and the arguments after `--` (--no-compile-check: not); its "
              "objects are kept in the cache, for the next review (--no-cache: not).\nExit "
              "status: 0 thoughtful, 1 mechanical or incomplete (a TU that does not compile "
              "included), 2 bad input. The checks and the verdict's criteria: "
              "docs/user-guide.md.");
  audit::ReviewOptions &O = Args->Options;
  InputSpellings &Spell = Args->Spellings;
  Sub->add_option("--target", O.Target, "root of the target repository")->required();
  Sub->add_option("--domain", O.Domain, "the migrated domain")->required();
  // The recomputed closure is an analysis of the review's source.
  Spell.flag(analyze::inputs::SourceRoot,
             Sub->add_option("--source", O.Source,
                             "the upstream tree migrated from: report files changed there since, "
                             "and recompute the closure"));
  Spell.flag(audit::inputs::ReviewExclude,
             Sub->add_option("--exclude", Args->Exclude,
                             "glob of paths (relative to the target) whose manifests and tests "
                             "are not read, e.g. golden copies of migrations; repeatable"));
  Spell.flag(audit::inputs::ValidationReports,
             Sub->add_option("--validation", O.ValidationReports,
                             "a JSON report of opmig validate for the domain: a layer it "
                             "passed covers the review layer it proves; repeatable"));
  Sub->add_option("--layers", O.LayersFile,
                  "the validation layers of the coverage matrix (default: the built-in "
                  "rules/review/validation-layers.yaml)");
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}))
      ->default_str("text");
  Sub->add_flag("--no-compile-check", Args->NoCompileCheck,
                "do not compile the domain's TUs with nvcc (the review then says so)");
  addToolchainOptions(*Sub, Args->Analysis, Spell);
  // The build check compiles for the architecture the analysis parses.
  Spell.flag(audit::inputs::BuildGpuArch, Sub->get_option("--gpu-arch"));
  Out.push_back({Sub, [Args](const std::vector<std::string> &PassThrough) {
                   return runReviewCommand(*Args, PassThrough);
                 }});
}

} // namespace

void registerReviewCommands(CLI::App &App, const RulesDir &Rules,
                            std::vector<std::pair<CLI::App *, CommandRunner>> &Out) {
  registerReview(App, Rules, Out);
  registerGate(App, Rules, Out);
}

} // namespace opmig
