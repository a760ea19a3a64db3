//===- Migrator.h - The `opmig migrate` pipeline ----------------*- C++ -*-===//
//
// analyze -> plan -> rewrite closure files -> derive op signatures ->
// render the profile's glue -> compare with the target and its manifest.
// The analysis is run by the caller's AnalysisRunner (the driver passes
// analyze::analyzeClosure): the migration consumes an AnalysisResult and
// does not depend on how it is computed, or cached.
// The result is every change the migration would make, computed in memory;
// nothing is written until the caller commits it (StagedWriter.h), so a dry
// run, a blocked run and a real run share one code path.
//
//   MigrateOptions Opts;
//   Opts.Analysis.SourceRoot = "upstream";
//   Opts.Analysis.Entries = {"merge_attn_states"};
//   Opts.TargetRoot = "cache-dit";
//   Opts.Domain = "attn";
//   Opts.Profile = "cache-dit";
//   Opts.Analyze = analyze::analyzeClosure;
//   llvm::Expected<MigrationResult> R = prepareMigration(Opts);
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_MIGRATOR_H
#define OPMIG_MIGRATE_MIGRATOR_H

#include "opmig/analyze/Analyzer.h"
#include "opmig/migrate/MigrationPlan.h"
#include "opmig/migrate/OpSignature.h"
#include "opmig/migrate/SourceRewriter.h"
#include "opmig/migrate/StagedWriter.h"
#include "opmig/support/Manifest.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

/// Computes the closure the migration ports, from MigrateOptions::Analysis.
/// Called after the checks that need no analysis, so that a bad profile or
/// target fails before a long parse.
using AnalysisRunner =
    std::function<llvm::Expected<analyze::AnalysisResult>(const analyze::AnalyzeOptions &)>;

struct MigrateOptions {
  analyze::AnalyzeOptions Analysis;
  AnalysisRunner Analyze; ///< Required.
  std::string TargetRoot;
  std::string Domain;
  std::string Profile = "generic"; ///< Built-in name or a profile.json path.
  std::string ProfilesDir;         ///< Folder of the built-in profiles.
  std::vector<NamespaceRename> Renames;
  /// `--flatten` prefixes as given (folders of the upstream tree, relative
  /// to its root): their files are placed as if each were the closure's
  /// shared folder (FileLayout.h). Checked before the analysis.
  std::vector<std::string> Flatten;
  /// `--no-register`: entries (as given with `--entry`) whose closure is
  /// ported but that get no op, schema or binding.
  std::vector<std::string> Unregistered;
  /// Tensor parameters each op writes where the analysis cannot see it
  /// (`--mutates`), by op name; see SignatureRequest::DeclaredWrites.
  std::map<std::string, std::vector<std::string>> DeclaredWrites;
  std::string UpstreamRepo;   ///< Overrides what git says.
  std::string UpstreamCommit; ///< Overrides what git says.
  bool AllowPartial = false;  ///< Port even when parses had errors.
  /// Write nothing at all: an interrupted migration of the target is
  /// reported (MigrationResult::Interrupted), not rolled back.
  bool DryRun = false;
  /// Create what the profile's convention asks the target to have and it
  /// lacks (required files, the code anchors need), from the profile's
  /// bootstrap templates; without it, such gaps are input errors.
  bool Bootstrap = false;
  std::string ToolVersion;
};

/// The options of MigrateOptions that the migration's messages name (see
/// InputName in Errors.h); it names those of the analysis as
/// analyze::inputs.
namespace inputs {
inline constexpr InputName TargetRoot{"migrate.TargetRoot"};
inline constexpr InputName Domain{"migrate.Domain"};
inline constexpr InputName Profile{"migrate.Profile"};
inline constexpr InputName Renames{"migrate.Renames"};
inline constexpr InputName Flatten{"migrate.Flatten"};
inline constexpr InputName Unregistered{"migrate.Unregistered"};
inline constexpr InputName UpstreamRepo{"migrate.UpstreamRepo"};
inline constexpr InputName UpstreamCommit{"migrate.UpstreamCommit"};
inline constexpr InputName AllowPartial{"migrate.AllowPartial"};
inline constexpr InputName DryRun{"migrate.DryRun"};
inline constexpr InputName Bootstrap{"migrate.Bootstrap"};
} // namespace inputs

enum class ChangeKind {
  Migrated,  ///< A closure file, rewritten.
  Generated, ///< A file the profile generates and the migration owns.
  Edited,    ///< A target-owned file with generated blocks.
  Manifest,
  /// `opmig-validation-spec.json`: generated, then the user's to fill in;
  /// a re-run merges it (mergeValidationSpecs) and never conflicts.
  ValidationSpec,
};

enum class ChangeAction { Create, Update, Unchanged, Remove };

const char *toString(ChangeKind K);
const char *toString(ChangeAction A);

struct PlannedChange {
  std::string Path; ///< Target-relative.
  ChangeKind Kind = ChangeKind::Generated;
  ChangeAction Action = ChangeAction::Create;
  std::string OldContent; ///< What the target holds now (empty if absent).
  std::string NewContent;
  std::string UpstreamPath; ///< For migrated files.
  unsigned Replacements = 0;
  std::vector<std::string> DroppedDefinitions;
  std::vector<LeftOutRange> LeftOut; ///< For migrated files: the manifest's `left_out`.
  std::vector<std::string> Blocks;   ///< For edited files: the block ids.
  /// Why this change would overwrite work that is not the migration's: a
  /// file or block edited since the last migration, or a file that opmig
  /// did not write. Empty when safe.
  std::string Conflict;
};

struct MigrationResult {
  analyze::AnalysisResult Analysis;
  MigrationPlan Plan;
  std::vector<OpSignature> Ops;
  std::vector<Finding> Issues;
  RewriteStats Rewrite;       ///< How the rewrite's parses went (cached, run).
  SignatureParses Signatures; ///< How the signature parses went.
  std::vector<ThirdPartyDependency> ThirdParty;
  std::vector<PlannedChange> Changes; ///< Sorted by path.
  Manifest NewManifest;
  std::string ManifestPath; ///< Target-relative.
  /// What this run writes to the spec beside the manifest: the derived
  /// spec, merged with the user's values of the one the target holds.
  ValidationSpec Spec;
  bool HadManifest = false; ///< The domain was migrated before.
  /// An interrupted migration found in the target: what rolling it back
  /// does. Rolled back already unless MigrateOptions::DryRun.
  std::optional<InterruptedCommit> Interrupted;
  bool RecoveredInterrupted = false;

  bool hasBlockingIssues() const;
  bool hasConflicts() const;
  bool changesAnything() const;
  /// The changes to commit (unchanged files left out).
  std::vector<FileChange> fileChanges() const;
};

/// Runs the pipeline; writes nothing (except that, unless
/// MigrateOptions::DryRun, a previously interrupted migration of the target
/// is rolled back first, see StagedWriter.h). Bad options (a value that
/// would become broken source text, a target inside the source), a target
/// that does not follow the profile's convention and an unusable manifest
/// are InputErrors, and so is a validation spec in the target that does
/// not read (it holds the user's work, so it is never overwritten).
llvm::Expected<MigrationResult> prepareMigration(const MigrateOptions &Options);

} // namespace opmig::migrate

#endif
