#include "AnalysisOptions.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "MigrationReport.h"
#include "UnifiedDiff.h"
#include "opmig/migrate/MigrationPlan.h"
#include "opmig/migrate/Migrator.h"
#include "opmig/migrate/StagedWriter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>

namespace opmig {

namespace {

struct MigrateArgs {
  AnalysisFlags Analysis;
  migrate::MigrateOptions Options;
  std::vector<std::string> Renames;
  std::string Format = "text";
  bool DryRun = false, Force = false, Verbose = false;
};

/// The folder of the built-in profiles: $OPMIG_RULES_DIR/profiles, else the
/// source tree's rules/profiles.
std::string builtinProfilesDir() {
  if (std::optional<std::string> Dir = llvm::sys::Process::GetEnv("OPMIG_RULES_DIR"))
    return *Dir + "/profiles";
  return std::string(OPMIG_RULES_DIR) + "/profiles";
}

/// OPMIG_TEST_KILL_AFTER_MOVES=N kills the process after N files were moved
/// into place: tests use it to check that the next run rolls back.
migrate::CommitHooks testHooks() {
  migrate::CommitHooks Hooks;
  if (std::optional<std::string> N = llvm::sys::Process::GetEnv("OPMIG_TEST_KILL_AFTER_MOVES")) {
    unsigned Limit = 0;
    if (!llvm::to_integer(*N, Limit))
      return Hooks;
    Hooks.AfterMove = [Limit](unsigned Moves) {
      if (Moves == Limit)
        raise(SIGKILL);
    };
  }
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

int runMigrate(MigrateArgs &Args, const std::vector<std::string> &Extra) {
  finishAnalysisOptions(Args.Analysis, Extra);
  migrate::MigrateOptions &Options = Args.Options;
  Options.Analysis = Args.Analysis.Options;
  Options.ProfilesDir = builtinProfilesDir();
  Options.ToolVersion = OPMIG_VERSION;
  for (const std::string &Spec : Args.Renames) {
    llvm::Expected<migrate::NamespaceRename> Rename = migrate::parseNamespaceRename(Spec);
    if (!Rename)
      return reportError(Rename.takeError());
    Options.Renames.push_back(*Rename);
  }
  llvm::Expected<migrate::MigrationResult> Result = migrate::prepareMigration(Options);
  if (!Result)
    return reportError(Result.takeError());

  MigrationOutcome Outcome = MigrationOutcome::Written;
  if (Result->hasBlockingIssues() || (Result->hasConflicts() && !Args.Force))
    Outcome = MigrationOutcome::Blocked;
  else if (!Result->changesAnything())
    Outcome = MigrationOutcome::UpToDate;
  else if (Args.DryRun)
    Outcome = MigrationOutcome::DryRun;

  if (Args.DryRun && Args.Format == "text") {
    llvm::Expected<std::string> Diff = dryRunDiff(*Result);
    if (!Diff)
      return reportError(Diff.takeError());
    llvm::outs() << *Diff;
  }
  if (Outcome == MigrationOutcome::Written)
    if (llvm::Error E =
            migrate::commitChanges(Options.TargetRoot, Result->fileChanges(), testHooks()))
      return reportError(std::move(E));
  if (Args.Format == "json")
    llvm::outs() << renderMigrationJson(*Result, Outcome, Args.Force).dump(2) << "\n";
  else
    llvm::outs() << renderMigrationText(*Result, Outcome, Args.Force, Args.Verbose);
  return Outcome == MigrationOutcome::Blocked ? ExitProblemsFound : ExitSuccess;
}

} // namespace

CommandRunner registerMigrateCommand(CLI::App &App) {
  auto Args = std::make_shared<MigrateArgs>();
  CLI::App *Sub = App.add_subcommand(
      "migrate", "port an operator's closure into a target repository, with its glue");
  Sub->footer("Arguments after `--` are passed to every Clang parse, e.g. `-- -DWITH_FP8=1`.");
  addAnalysisOptions(*Sub, Args->Analysis);
  migrate::MigrateOptions &O = Args->Options;
  Sub->add_option("--target", O.TargetRoot, "root of the repository to migrate into")->required();
  Sub->add_option("--domain", O.Domain,
                  "operator family in the target, e.g. attn: names the native folder, the C++ "
                  "namespace and the Python module")
      ->required();
  Sub->add_option("--profile", O.Profile,
                  "target conventions: cache-dit, veomni, generic, or a profile.json path")
      ->default_str("generic");
  Sub->add_option("--rename-namespace", Args->Renames,
                  "OLD=NEW namespace rename, repeatable; OLD=OLD keeps a namespace as it is")
      ->allow_extra_args(false);
  Sub->add_option("--upstream-repo", O.UpstreamRepo,
                  "upstream repository recorded in the provenance (default: git remote origin)");
  Sub->add_option("--upstream-commit", O.UpstreamCommit,
                  "upstream commit recorded in the provenance (default: git HEAD)");
  Sub->add_flag("--allow-partial", O.AllowPartial,
                "migrate even when Clang rejected part of the upstream code");
  Sub->add_flag("--dry-run", Args->DryRun, "print the unified diff; write nothing");
  Sub->add_flag("--force", Args->Force,
                "overwrite files and blocks that were edited since the last migration");
  Sub->add_option("--format", Args->Format, "output format")
      ->check(CLI::IsMember({"text", "json"}));
  Sub->add_flag("-v,--verbose", Args->Verbose, "also list unchanged files");
  return [Args](const std::vector<std::string> &Extra) { return runMigrate(*Args, Extra); };
}

} // namespace opmig
