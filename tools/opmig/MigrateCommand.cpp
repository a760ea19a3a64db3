#include "AnalysisOptions.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "MigrationReport.h"
#include "UnifiedDiff.h"
#include "opmig/migrate/MigrationPlan.h"
#include "opmig/migrate/Migrator.h"
#include "opmig/migrate/StagedWriter.h"
#include "opmig/migrate/TargetLock.h"
#include "opmig/support/Errors.h"
#include "opmig/support/JsonText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <map>
#include <optional>

namespace opmig {

namespace {

struct MigrateArgs {
  AnalysisFlags Analysis;
  migrate::MigrateOptions Options;
  std::vector<std::string> Renames;
  std::vector<std::string> Mutates;
  std::string Format = "text";
  bool DryRun = false, Force = false, Verbose = false, NoCompileCheck = false;
  InputSpellings Spellings;
};

/// The commit step named by a fault-injection setting: `staged`,
/// `journal`, `move:N` (after N files moved), `moved` or `committed`.
std::optional<std::pair<migrate::CommitStep, unsigned>> parseStep(llvm::StringRef Spec) {
  using migrate::CommitStep;
  unsigned N = 0;
  if (Spec.consume_front("move:"))
    return llvm::to_integer(Spec, N) ? std::optional(std::pair{CommitStep::Moved, N})
                                     : std::nullopt;
  for (auto [Name, Step] :
       {std::pair{"staged", CommitStep::Staged}, std::pair{"journal", CommitStep::JournalWritten},
        std::pair{"moved", CommitStep::AllMoved},
        std::pair{"committed", CommitStep::JournalRemoved}})
    if (Spec == Name)
      return std::pair{Step, 0u};
  return std::nullopt;
}

/// Fault injection for tests: OPMIG_TEST_KILL_AFTER_MOVES=N kills the
/// process (SIGKILL) after N files were moved into place;
/// OPMIG_TEST_KILL_AT=STEP kills it at a step (see parseStep) and
/// OPMIG_TEST_SIGNAL_AT=STEP sends it SIGTERM there, which the commit holds
/// back until it is complete.
migrate::CommitHooks testHooks() {
  migrate::CommitHooks Hooks;
  std::optional<std::string> Moves = llvm::sys::Process::GetEnv("OPMIG_TEST_KILL_AFTER_MOVES");
  std::optional<std::string> Kill = llvm::sys::Process::GetEnv("OPMIG_TEST_KILL_AT");
  std::optional<std::string> Term = llvm::sys::Process::GetEnv("OPMIG_TEST_SIGNAL_AT");
  std::optional<std::pair<migrate::CommitStep, unsigned>> At;
  int Signal = SIGKILL;
  if (Moves)
    At = parseStep("move:" + *Moves);
  else if (Kill)
    At = parseStep(*Kill);
  else if (Term) {
    At = parseStep(*Term);
    Signal = SIGTERM;
  }
  if (!At)
    return Hooks;
  Hooks.AtStep = [At, Signal](migrate::CommitStep Step, unsigned Done) {
    if (Step == At->first && (Step != migrate::CommitStep::Moved || Done == At->second))
      raise(Signal);
  };
  return Hooks;
}

llvm::Expected<std::string> dryRunDiff(const migrate::MigrationResult &R) {
  std::string Out;
  for (const migrate::PlannedChange &C : R.Changes) {
    if (C.Action == migrate::ChangeAction::Unchanged)
      continue;
    bool Existed = C.Action != migrate::ChangeAction::Create;
    bool Exists = C.Action != migrate::ChangeAction::Remove;
    llvm::Expected<std::string> Diff =
        unifiedDiff(C.Path, C.OldContent, C.NewContent, Existed, Exists);
    if (!Diff)
      return Diff.takeError();
    Out += *Diff;
  }
  return Out;
}

/// `OP=PARAM[,PARAM...]` of `--mutates`, added to `Writes`.
llvm::Error addDeclaredWrites(llvm::StringRef Spec,
                              std::map<std::string, std::vector<std::string>> &Writes) {
  auto [Op, Params] = Spec.split('=');
  llvm::SmallVector<llvm::StringRef> Names;
  Params.split(Names, ',', -1, /*KeepEmpty=*/false);
  if (Op.trim().empty() || Names.empty())
    return inputError("invalid --mutates '", Spec,
                      "'; write OP=PARAM[,PARAM...], e.g. --mutates gemm_w4a4=out,qout");
  for (llvm::StringRef Name : Names)
    Writes[Op.trim().str()].push_back(Name.trim().str());
  return llvm::Error::success();
}

int runMigrate(MigrateArgs &Args, const std::vector<std::string> &Extra) {
  finishAnalysisOptions(Args.Analysis, Extra);
  migrate::MigrateOptions &Options = Args.Options;
  Options.Analysis = Args.Analysis.Options;
  Options.Analyze = analyze::analyzeClosure;
  Options.ToolVersion = OPMIG_VERSION;
  for (const std::string &Spec : Args.Renames) {
    llvm::Expected<opmig::NamespaceRename> Rename = migrate::parseNamespaceRename(Spec);
    if (!Rename)
      return reportError(Rename.takeError(), Args.Spellings);
    Options.Renames.push_back(*Rename);
  }
  for (const std::string &Spec : Args.Mutates)
    if (llvm::Error E = addDeclaredWrites(Spec, Options.DeclaredWrites))
      return reportError(std::move(E), Args.Spellings);
  Options.DryRun = Args.DryRun;
  // Held from before the recovery to after the commit; a dry run writes
  // nothing and needs none.
  std::optional<migrate::TargetLock> Lock;
  if (!Args.DryRun && llvm::sys::fs::is_directory(Options.TargetRoot)) {
    llvm::Expected<migrate::TargetLock> Acquired = migrate::TargetLock::acquire(Options.TargetRoot);
    if (!Acquired)
      return reportError(Acquired.takeError(), Args.Spellings);
    Lock.emplace(std::move(*Acquired));
  }
  llvm::Expected<migrate::MigrationResult> Result = migrate::prepareMigration(Options);
  if (!Result)
    return reportError(Result.takeError(), Args.Spellings);

  MigrationOutcome Outcome = MigrationOutcome::Written;
  if (Result->hasBlockingIssues() || (Result->hasConflicts() && !Args.Force))
    Outcome = MigrationOutcome::Blocked;
  else if (!Result->changesAnything())
    Outcome = MigrationOutcome::UpToDate;
  else if (Args.DryRun)
    Outcome = MigrationOutcome::DryRun;
  // What would be written must compile where upstream did.
  migrate::CompileCheckReport Check;
  if (Args.NoCompileCheck)
    Check.NotRunBecause = "--no-compile-check";
  else if (Outcome == MigrationOutcome::Written || Outcome == MigrationOutcome::DryRun)
    Check = migrate::checkMigrationCompiles(*Result, {Options.TargetRoot, Options.Analysis.Jobs});
  if (Check.addsErrors())
    Outcome = MigrationOutcome::Blocked;

  if (Args.DryRun && Args.Format == "text") {
    llvm::Expected<std::string> Diff = dryRunDiff(*Result);
    if (!Diff)
      return reportError(Diff.takeError(), Args.Spellings);
    llvm::outs() << *Diff;
  }
  if (Outcome == MigrationOutcome::Written)
    if (llvm::Error E =
            migrate::commitChanges(Options.TargetRoot, Result->fileChanges(), testHooks()))
      return reportError(std::move(E), Args.Spellings);
  if (Args.Format == "json")
    llvm::outs() << dumpJson(renderMigrationJson(*Result, Check, Outcome, Args.Force), 2) << "\n";
  else
    llvm::outs() << renderMigrationText(*Result, Check, Outcome, Args.Force, Args.Verbose);
  return Outcome == MigrationOutcome::Blocked ? ExitProblemsFound : ExitSuccess;
}

} // namespace

CommandRunner registerMigrateCommand(CLI::App &App, const RulesDir &Rules) {
  auto Args = std::make_shared<MigrateArgs>();
  Args->Options.ProfilesDir = Rules.profiles();
  CLI::App *Sub = App.add_subcommand(
      "migrate", "port an operator's closure into a target repository, with its glue");
  Sub->footer("Arguments after `--` are passed to every Clang parse, e.g. `-- -DWITH_FP8=1`.");
  InputSpellings &Spell = Args->Spellings;
  addAnalysisOptions(*Sub, Args->Analysis, Spell);
  migrate::MigrateOptions &O = Args->Options;
  namespace in = migrate::inputs;
  Spell.flag(in::TargetRoot,
             Sub->add_option("--target", O.TargetRoot, "root of the repository to migrate into")
                 ->required());
  Spell.flag(in::Domain, Sub->add_option("--domain", O.Domain,
                                         "operator family in the target, e.g. attn: names the "
                                         "native folder, the C++ namespace and the Python module")
                             ->required());
  Spell.flag(
      in::Profile,
      Sub->add_option("--profile", O.Profile,
                      "target conventions: cache-dit, veomni, generic, or a profile.json path")
          ->default_str("generic"));
  Spell.flag(in::Renames, Sub->add_option("--rename-namespace", Args->Renames,
                                          "OLD=NEW namespace rename, repeatable; OLD=OLD keeps a "
                                          "namespace as it is")
                              ->allow_extra_args(false));
  Spell.flag(in::Flatten,
             Sub->add_option("--flatten", O.Flatten,
                             "PREFIX: an upstream folder (relative to --source) whose files are "
                             "placed as if it were the closure's shared folder, repeatable; e.g. "
                             "--flatten src/kernels")
                 ->allow_extra_args(false));
  Spell.flag(in::Unregistered,
             Sub->add_option("--no-register", O.Unregistered,
                             "ENTRY: port this --entry's closure without registering it as an op "
                             "(a kernel-level function a wrapper of the target calls), repeatable")
                 ->allow_extra_args(false));
  Sub->add_option("--mutates", Args->Mutates,
                  "OP=PARAM[,PARAM...]: tensor parameters OP writes where the analysis cannot "
                  "see it (inside a function of another file); they become Tensor(a!), "
                  "repeatable")
      ->allow_extra_args(false);
  Spell.flag(in::UpstreamRepo,
             Sub->add_option("--upstream-repo", O.UpstreamRepo,
                             "upstream repository recorded in the provenance (default: git remote "
                             "origin)"));
  Spell.flag(in::UpstreamCommit,
             Sub->add_option("--upstream-commit", O.UpstreamCommit,
                             "upstream commit recorded in the provenance (default: git HEAD)"));
  Spell.flag(in::AllowPartial,
             Sub->add_flag("--allow-partial", O.AllowPartial,
                           "migrate even when Clang rejected part of the upstream code"));
  Spell.flag(in::DryRun,
             Sub->add_flag("--dry-run", Args->DryRun, "print the unified diff; write nothing"));
  Sub->add_flag("--no-compile-check", Args->NoCompileCheck,
                "do not compile the migrated TUs with nvcc before writing them");
  Spell.flag(in::Bootstrap,
             Sub->add_flag("--bootstrap", O.Bootstrap,
                           "create what the profile's convention asks the target to have and it "
                           "lacks (an __all__, a guard test, setup.py's extension helpers); see it "
                           "with --dry-run"));
  Sub->add_flag("--force", Args->Force,
                "overwrite files and blocks that were edited since the last migration");
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json"}));
  Sub->add_flag("-v,--verbose", Args->Verbose, "also list unchanged files");
  return [Args](const std::vector<std::string> &Extra) { return runMigrate(*Args, Extra); };
}

} // namespace opmig
