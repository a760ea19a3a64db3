#include "MigrationReport.h"

#include "opmig/report/FindingJson.h"
#include "opmig/report/FindingText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace opmig {

using migrate::ChangeAction;
using migrate::MigrationResult;
using migrate::PlannedChange;
using nlohmann::json;

namespace {

const char *toString(MigrationOutcome O) {
  switch (O) {
  case MigrationOutcome::Written:
    return "written";
  case MigrationOutcome::DryRun:
    return "dry-run";
  case MigrationOutcome::Blocked:
    return "blocked";
  case MigrationOutcome::UpToDate:
    return "up-to-date";
  }
  return "?";
}

json changeJson(const PlannedChange &C) {
  json J = {{"path", C.Path},
            {"kind", migrate::toString(C.Kind)},
            {"action", migrate::toString(C.Action)}};
  if (!C.UpstreamPath.empty())
    J["upstream_path"] = C.UpstreamPath;
  if (C.Kind == migrate::ChangeKind::Migrated && C.Action != ChangeAction::Remove) {
    J["replacements"] = C.Replacements;
    J["dropped_definitions"] = C.DroppedDefinitions;
  }
  if (!C.Blocks.empty())
    J["blocks"] = C.Blocks;
  if (!C.Conflict.empty())
    J["conflict"] = C.Conflict;
  return J;
}

/// `rewrites, dropped x` for a migrated file; the block ids for an edit.
std::string changeDetail(const PlannedChange &C) {
  if (C.Kind == migrate::ChangeKind::Migrated && C.Action != ChangeAction::Remove) {
    std::string Detail = "from " + C.UpstreamPath;
    if (C.Replacements)
      Detail += llvm::formatv(", {0} rewrite{1}", C.Replacements, C.Replacements == 1 ? "" : "s");
    if (!C.DroppedDefinitions.empty())
      Detail += ", left out: " + llvm::join(C.DroppedDefinitions, ", ");
    return Detail;
  }
  if (!C.Blocks.empty())
    return "blocks " + llvm::join(C.Blocks, ", ");
  return migrate::toString(C.Kind);
}

/// A dry run found an interrupted migration: what a real run rolls back.
std::string describeInterrupted(const migrate::InterruptedCommit &I) {
  std::string Out = "note: this target holds an interrupted migration (" +
                    std::string(migrate::StagingDirName) +
                    "); a real run first rolls it back, which a dry run does not do:\n";
  for (const std::string &P : I.Restored)
    Out += "  restore   " + P + "  (from its backup)\n";
  for (const std::string &P : I.Removed)
    Out += "  remove    " + P + "  (written by the interrupted run)\n";
  if (I.Restored.empty() && I.Removed.empty())
    Out += "  (no file to put back; only the staging folder is removed)\n";
  Out += "  a diff above compares with the target as it is now\n";
  return Out;
}

json interruptedJson(const MigrationResult &R) {
  if (!R.Interrupted)
    return nullptr;
  return {{"rolled_back", R.RecoveredInterrupted},
          {"restore", R.Interrupted->Restored},
          {"remove", R.Interrupted->Removed}};
}

/// How many parses each step ran and took from the cache: a re-run of an
/// unchanged migration runs none.
json statsJson(const MigrationResult &R) {
  const analyze::AnalysisStats &A = R.Analysis.Stats;
  const migrate::RewriteStats &W = R.Rewrite;
  return {{"analysis",
           {{"parses_run", A.ParsesRun},
            {"parses_cached", A.ParsesCached},
            {"parses_with_preamble", A.ParsesWithPreamble},
            {"preambles", A.Preambles}}},
          {"rewrite",
           {{"parses_run", W.ParsesRun},
            {"parses_cached", W.ParsesCached},
            {"parses_with_preamble", W.ParsesWithPreamble},
            {"preambles", W.Preambles},
            {"concurrency", W.Concurrency}}},
          {"signatures",
           {{"parses_run", R.Signatures.Run},
            {"parses_cached", R.Signatures.Cached},
            {"parses_with_preamble", R.Signatures.WithPreamble}}}};
}

void describeStats(const MigrationResult &R, llvm::raw_ostream &OS) {
  const analyze::AnalysisStats &A = R.Analysis.Stats;
  const migrate::RewriteStats &W = R.Rewrite;
  OS << "parses: analysis " << A.ParsesRun << " run, " << A.ParsesCached << " from cache, "
     << A.ParsesWithPreamble << " with a shared preamble; rewrite " << W.ParsesRun << " run, "
     << W.ParsesCached << " from cache, " << W.ParsesWithPreamble
     << " with a shared preamble; signatures " << R.Signatures.Run << " run, "
     << R.Signatures.Cached << " from cache, " << R.Signatures.WithPreamble
     << " with a shared preamble\n";
  for (const std::string &Note : A.Preambles)
    OS << "  analysis: " << Note << "\n";
  for (const std::string &Note : A.Concurrency)
    OS << "  analysis: " << Note << "\n";
  for (const std::string &Note : W.Preambles)
    OS << "  rewrite: " << Note << "\n";
  for (const std::string &Note : W.Concurrency)
    OS << "  rewrite: " << Note << "\n";
}

} // namespace

json compileCheckJson(const migrate::CompileCheckReport &Check) {
  json TUs = json::array();
  for (const migrate::TUCompile &TU : Check.TUs) {
    json Errors = json::array();
    for (const opmig::CompilerError &E : TU.Errors)
      Errors.push_back({{"file", E.File}, {"line", E.Line}, {"message", E.Message}});
    TUs.push_back({{"path", TU.Path},
                   {"upstream_path", TU.UpstreamPath},
                   {"compiles", TU.Compiles},
                   {"errors", Errors},
                   {"upstream_compiles", TU.UpstreamCompiles},
                   {"upstream_first_error", TU.UpstreamFirstError},
                   {"adds_errors", TU.addsErrors()}});
  }
  return {
      {"ran", Check.Ran},          {"not_run_because", Check.NotRunBecause}, {"nvcc", Check.Nvcc},
      {"gpu_arch", Check.GpuArch}, {"adds_errors", Check.addsErrors()},      {"tus", TUs}};
}

void describeCompileCheck(const migrate::CompileCheckReport &Check, llvm::raw_ostream &OS) {
  if (!Check.Ran) {
    OS << "compile check: not run (" << Check.NotRunBecause << ")\n";
    return;
  }
  size_t Compiling = llvm::count_if(Check.TUs, [](const auto &TU) { return TU.Compiles; });
  OS << "compile check (nvcc, front end for " << Check.GpuArch << "): " << Compiling << " of "
     << Check.TUs.size() << " TUs compile\n";
  for (const migrate::TUCompile &TU : Check.TUs) {
    if (TU.Compiles)
      continue;
    const opmig::CompilerError &First = TU.Errors.front();
    OS << "  " << (TU.addsErrors() ? "error" : "note") << ": " << TU.Path << ": " << First.File
       << ":" << First.Line << ": " << First.Message << " ("
       << (TU.UpstreamPath.empty() ? "generated glue"
           : TU.UpstreamCompiles
               ? "upstream " + TU.UpstreamPath + " compiles: the migration added it"
               : "upstream " + TU.UpstreamPath + " fails too")
       << ")\n";
  }
}

json renderMigrationJson(const MigrationResult &R, const migrate::CompileCheckReport &Check,
                         MigrationOutcome Outcome, bool Forced) {
  const opmig::Manifest &M = R.NewManifest;
  json Ops = json::array();
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    const migrate::OpSignature &Sig = R.Ops[I];
    json Op = {{"name", R.Plan.Ops[I].Name},
               {"qualified_name", R.Plan.OpNamespace + "::" + R.Plan.Ops[I].Name},
               {"schema", Sig.Schema},
               {"upstream_function", R.Plan.Ops[I].UpstreamFunction},
               {"cpp_function", R.Plan.Ops[I].TargetFunction},
               {"fake_derived", Sig.FakeDerived}};
    if (!Sig.FakeDerived)
      Op["fake_reason"] = Sig.FakeReason;
    if (!Sig.WritesUnseen.empty())
      Op["writes_unseen"] = Sig.WritesUnseen;
    Ops.push_back(std::move(Op));
  }
  json Changes = json::array();
  for (const PlannedChange &C : R.Changes)
    Changes.push_back(changeJson(C));
  json Issues = json::array();
  for (const Finding &I : R.Issues)
    Issues.push_back(json(report::findingJson(I)));
  json ThirdParty = json::array();
  for (const migrate::ThirdPartyDependency &Party : R.ThirdParty)
    ThirdParty.push_back({{"name", Party.Name},
                          {"upstream_dir", Party.UpstreamDir},
                          {"target_dir", Party.TargetDir},
                          {"include_dirs", Party.IncludeDirs},
                          {"headers", Party.Headers},
                          {"present", Party.Present}});
  json Renames = json::array();
  for (const opmig::NamespaceRename &Rename : R.Plan.Renames)
    Renames.push_back({{"from", Rename.From}, {"to", Rename.To}});
  return {{"schema", MigrateSchemaVersion},
          {"outcome", toString(Outcome)},
          {"forced", Forced},
          {"profile", M.Profile},
          {"spec", M.Spec},
          {"domain", R.Plan.Domain},
          {"native_dir", R.Plan.NativeDir},
          {"include_root", R.Plan.IncludeRoot},
          {"manifest", R.ManifestPath},
          {"upstream",
           {{"repo", M.Upstream.Repo}, {"commit", M.Upstream.Commit}, {"dirty", M.Upstream.Dirty}}},
          {"flattened", R.Plan.Flattened},
          {"namespace_renames", Renames},
          {"wrap_global_namespace_into", R.Plan.WrapGlobalInto},
          {"regenerated", R.Plan.Regenerated},
          {"third_party", ThirdParty},
          {"ops", Ops},
          {"unregistered_entries", R.Plan.Unregistered},
          {"changes", Changes},
          {"issues", Issues},
          {"compile_check", compileCheckJson(Check)},
          {"stats", statsJson(R)},
          {"recovered_interrupted_run", R.RecoveredInterrupted},
          {"interrupted_run", interruptedJson(R)}};
}

std::string renderMigrationText(const MigrationResult &R, const migrate::CompileCheckReport &Check,
                                MigrationOutcome Outcome, bool Forced, bool Verbose) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  const opmig::UpstreamInfo &Up = R.NewManifest.Upstream;
  OS << "migrate " << R.Plan.Ops.size() << " op" << (R.Plan.Ops.size() == 1 ? "" : "s") << " into "
     << R.Plan.NativeDir << " (profile "
     << R.NewManifest.Profile
     // A copied profile is named apart from the spec whose layers review requires.
     << (R.NewManifest.Spec == R.NewManifest.Profile ? "" : ", spec " + R.NewManifest.Spec)
     << ") from " << Up.Repo << " at " << Up.Commit << (Up.Dirty ? " (dirty)" : "") << "\n";
  for (const std::string &Prefix : R.Plan.Flattened)
    OS << "flatten " << Prefix << "/ -> " << R.Plan.NativeDir << "/\n";
  for (const std::string &Function : R.Plan.Unregistered)
    OS << "port " << Function << " without an op (--no-register)\n";
  if (R.RecoveredInterrupted)
    OS << "note: rolled back an interrupted migration of this target first\n";
  else if (R.Interrupted)
    OS << describeInterrupted(*R.Interrupted);
  size_t Unchanged = 0;
  for (const PlannedChange &C : R.Changes) {
    if (C.Action == ChangeAction::Unchanged && !Verbose) {
      ++Unchanged;
      continue;
    }
    OS << llvm::formatv("  {0,-9} {1}  ({2})", migrate::toString(C.Action), C.Path,
                        changeDetail(C));
    if (!C.Conflict.empty())
      OS << "  CONFLICT: " << C.Conflict;
    OS << "\n";
  }
  if (Unchanged)
    OS << "  " << Unchanged << " file" << (Unchanged == 1 ? "" : "s") << " unchanged\n";
  for (size_t I = 0; I < R.Ops.size(); ++I) {
    OS << "op " << R.Plan.OpNamespace << "::" << R.Plan.Ops[I].Name << R.Ops[I].Schema << "\n";
    if (!R.Ops[I].WritesUnseen.empty())
      OS << "warning: " << R.Plan.Ops[I].Name << ": " << R.Ops[I].WritesUnseen << " with --mutates "
         << R.Plan.Ops[I].Name << "=PARAM,...\n";
    if (!R.Ops[I].FakeDerived)
      OS << "warning: no fake derived for " << R.Plan.Ops[I].Name << ": " << R.Ops[I].FakeReason
         << "; the generated fake raises until you write one\n";
  }
  for (const migrate::ThirdPartyDependency &Party : R.ThirdParty)
    if (!Party.Present)
      OS << "note: the code includes " << Party.Name << " headers (the upstream's submodule "
         << Party.UpstreamDir << "): add it at " << Party.TargetDir
         << ", where the build glue looks for it\n";
  for (const Finding &I : R.Issues)
    OS << report::renderFindingText(I);
  describeCompileCheck(Check, OS);
  if (Verbose)
    describeStats(R, OS);
  switch (Outcome) {
  case MigrationOutcome::Written:
    OS << "written" << (Forced ? " (--force: conflicting files overwritten)" : "") << "\n";
    break;
  case MigrationOutcome::DryRun:
    OS << "dry run: nothing written\n";
    break;
  case MigrationOutcome::UpToDate:
    OS << "up to date: nothing to write\n";
    break;
  case MigrationOutcome::Blocked:
    OS << "not written: "
       << (R.hasBlockingIssues() ? "fix the errors above"
           : Check.addsErrors()
               ? "the migrated code would not compile where upstream does (errors above); see "
                 "the files with --dry-run, or write them anyway with --no-compile-check"
               : "files above were changed by hand; keep your edits by moving them upstream, or "
                 "pass --force to overwrite them")
       << "\n";
    break;
  }
  return Out;
}

} // namespace opmig
