#include "opmig/migrate/Migrator.h"

#include "BuildFlagsContext.h"
#include "CppNames.h"
#include "GlueContext.h"
#include "UpstreamProbe.h"
#include "opmig/migrate/FileLayout.h"
#include "opmig/migrate/Profile.h"
#include "opmig/migrate/TargetEdits.h"
#include "opmig/migrate/TemplateRenderer.h"
#include "opmig/support/BlockMarkers.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Hashing.h"
#include "opmig/support/ValidationSpec.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <set>
#include <tuple>

namespace opmig::migrate {

namespace fs = llvm::sys::fs;
using nlohmann::json;

const char *toString(ChangeKind K) {
  switch (K) {
  case ChangeKind::Migrated:
    return "migrated";
  case ChangeKind::Generated:
    return "generated";
  case ChangeKind::Edited:
    return "edited";
  case ChangeKind::Manifest:
    return "manifest";
  case ChangeKind::ValidationSpec:
    return "validation-spec";
  }
  return "?";
}

const char *toString(ChangeAction A) {
  switch (A) {
  case ChangeAction::Create:
    return "create";
  case ChangeAction::Update:
    return "update";
  case ChangeAction::Unchanged:
    return "unchanged";
  case ChangeAction::Remove:
    return "remove";
  }
  return "?";
}

bool MigrationResult::hasBlockingIssues() const {
  return llvm::any_of(Issues, [](const Finding &I) { return I.Level == Severity::Error; });
}

bool MigrationResult::hasConflicts() const {
  return llvm::any_of(Changes, [](const PlannedChange &C) { return !C.Conflict.empty(); });
}

bool MigrationResult::changesAnything() const {
  return llvm::any_of(Changes,
                      [](const PlannedChange &C) { return C.Action != ChangeAction::Unchanged; });
}

std::vector<FileChange> MigrationResult::fileChanges() const {
  std::vector<FileChange> Out;
  for (const PlannedChange &C : Changes)
    if (C.Action != ChangeAction::Unchanged)
      Out.push_back({C.Path, C.NewContent, C.Action == ChangeAction::Remove});
  return Out;
}

namespace {

std::string joinPath(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> P(A);
  llvm::sys::path::append(P, B);
  return std::string(P);
}

/// The file's text, or nullopt when it does not exist.
llvm::Expected<std::optional<std::string>> readIfExists(const std::string &Path) {
  if (!fs::exists(Path))
    return std::nullopt;
  auto Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError("cannot read ", Path, ": ", Buffer.getError().message());
  return std::optional<std::string>((*Buffer)->getBuffer().str());
}

/// `Path` with `_upstream` (then `_upstream2`, ...) before its extension: the
/// first such name that `Taken` does not hold.
std::string freeNameBeside(llvm::StringRef Path, const std::set<std::string> &Taken) {
  llvm::StringRef Extension = llvm::sys::path::extension(Path, llvm::sys::path::Style::posix);
  llvm::StringRef Stem = Path.drop_back(Extension.size());
  for (unsigned N = 1;; ++N) {
    std::string Name = (Stem + "_upstream" + (N == 1 ? "" : std::to_string(N)) + Extension).str();
    if (!Taken.count(Name))
      return Name;
  }
}

/// What the target had before, as the previous manifest recorded it.
struct PreviousRun {
  std::optional<Manifest> Recorded;

  const MigratedFileRecord *migrated(const std::string &Path) const {
    if (!Recorded)
      return nullptr;
    for (const MigratedFileRecord &F : Recorded->Files)
      if (F.TargetPath == Path)
        return &F;
    return nullptr;
  }
  const GeneratedFileRecord *generated(const std::string &Path) const {
    if (!Recorded)
      return nullptr;
    for (const GeneratedFileRecord &G : Recorded->Generated)
      if (G.TargetPath == Path)
        return &G;
    return nullptr;
  }
  /// sha256 the previous run recorded for a whole owned file, if any.
  std::optional<std::string> ownedSha(const std::string &Path) const {
    if (const MigratedFileRecord *F = migrated(Path))
      return F->MigratedSha256;
    if (const GeneratedFileRecord *G = generated(Path); G && G->Blocks.empty())
      return G->Sha256;
    return std::nullopt;
  }
};

class Pipeline {
public:
  explicit Pipeline(const MigrateOptions &Options) : Options(Options) {}
  llvm::Expected<MigrationResult> run();

private:
  llvm::Error checkTarget();
  llvm::Error checkTargetOutsideSource();
  llvm::Error checkChangesOutsideSource() const;
  llvm::Error analyze();
  llvm::Error loadPreviousManifest();
  /// The paths the profile generates; a ported file that would land on one
  /// is moved aside first (moveAsideFromGenerated).
  llvm::Expected<std::vector<std::string>> generatedPaths();
  void moveAsideFromGenerated(const std::vector<std::string> &Generated);
  UpstreamInfo upstream() const;
  llvm::Error rewrite(const UpstreamInfo &Upstream);
  llvm::Error derive();
  llvm::Error render(const UpstreamInfo &Upstream, const std::vector<std::string> &Generated);
  llvm::Error addOwnedChange(PlannedChange Change);
  llvm::Error addEditedChange(const GeneratedOutput &Output);
  llvm::Error addValidationSpec();
  void addRemovals();
  void addManifest();

  const MigrateOptions &Options;
  Profile P;
  std::string TargetRoot, SourceRoot;
  std::vector<std::string> Flatten; ///< Options.Flatten, parsed.
  PreviousRun Previous;
  MigrationResult R;
};

llvm::Error Pipeline::checkTarget() {
  if (!fs::is_directory(Options.TargetRoot))
    return inputError("the target ", Options.TargetRoot, inputs::TargetRoot,
                      " is not a directory; pass the root of the repository to migrate into");
  llvm::SmallString<256> Real;
  if (std::error_code EC = fs::real_path(Options.TargetRoot, Real))
    return inputError("cannot resolve the target ", Options.TargetRoot, inputs::TargetRoot, ": ",
                      EC.message());
  TargetRoot = std::string(Real);
  if (llvm::Error E = checkTargetOutsideSource())
    return E;
  // A dry run writes nothing, so it only says what a real run would undo.
  llvm::Expected<std::optional<InterruptedCommit>> Found = inspectInterrupted(TargetRoot);
  if (!Found)
    return Found.takeError();
  R.Interrupted = std::move(*Found);
  if (R.Interrupted && !Options.DryRun) {
    llvm::Expected<bool> Recovered = recoverInterrupted(TargetRoot);
    if (!Recovered)
      return Recovered.takeError();
    R.RecoveredInterrupted = *Recovered;
  }
  // Every gap at once, and before the analysis: a user fixes them in one go.
  llvm::Expected<MigrationPlan> Named = planDomain(P, Options.Domain);
  if (!Named)
    return Named.takeError();
  return checkTargetConvention(P, baseContext(*Named, P), TargetRoot, Options.Bootstrap);
}

/// A target inside the source would make the migration copy into the tree
/// it reads (and a re-run read its own output). A source inside the target
/// is fine (this repository migrates samples/upstream into kernels/), as
/// long as no change lands in the source: checked by checkChangesOutsideSource.
llvm::Error Pipeline::checkTargetOutsideSource() {
  llvm::SmallString<256> Source;
  if (fs::real_path(Options.Analysis.SourceRoot, Source))
    return llvm::Error::success(); // The analysis reports a missing source folder.
  SourceRoot = std::string(Source);
  if (TargetRoot == SourceRoot || llvm::StringRef(TargetRoot).starts_with(SourceRoot + "/"))
    return inputError("the target ", Options.TargetRoot, inputs::TargetRoot,
                      " is inside the source folder ", Options.Analysis.SourceRoot,
                      analyze::inputs::SourceRoot,
                      "; migrate into a repository outside the upstream tree");
  return llvm::Error::success();
}

llvm::Error Pipeline::checkChangesOutsideSource() const {
  if (!llvm::StringRef(SourceRoot).starts_with(TargetRoot + "/"))
    return llvm::Error::success();
  llvm::StringRef Inside = llvm::StringRef(SourceRoot).drop_front(TargetRoot.size() + 1);
  for (const PlannedChange &C : R.Changes)
    if (C.Path == Inside || llvm::StringRef(C.Path).starts_with((Inside + "/").str()))
      return inputError("the migration would write ", C.Path, " inside the source folder ",
                        Options.Analysis.SourceRoot, analyze::inputs::SourceRoot,
                        "; pick another domain name", inputs::Domain, " or profile",
                        inputs::Profile);
  return llvm::Error::success();
}

/// The upstream repository and commit become the first line of every
/// migrated file (`// Migrated by opmig from REPO at COMMIT: path`): a
/// newline there would make the rest of the value code.
llvm::Error checkProvenanceValues(const MigrateOptions &Options) {
  for (auto [Name, Input, Value] :
       {std::tuple{"upstream repository", inputs::UpstreamRepo, &Options.UpstreamRepo},
        std::tuple{"upstream commit", inputs::UpstreamCommit, &Options.UpstreamCommit}})
    if (size_t At = firstControlCharacter(*Value); At != llvm::StringRef::npos)
      return inputError("invalid ", Name, " '", llvm::StringRef(*Value).take_front(At).str(),
                        "...'", Input, ": it holds a control character (byte ", std::to_string(At),
                        "), and the value becomes a comment line in every migrated file");
  return llvm::Error::success();
}

llvm::Error Pipeline::analyze() {
  assert(Options.Analyze && "MigrateOptions::Analyze is required");
  llvm::Expected<analyze::AnalysisResult> Analysis = Options.Analyze(Options.Analysis);
  if (!Analysis)
    return Analysis.takeError();
  R.Analysis = std::move(*Analysis);
  if (R.Analysis.isPartial() && !Options.AllowPartial)
    return inputError(
        "the analysis of ", Options.Analysis.SourceRoot,
        " is partial, so the closure may miss files: ", llvm::join(R.Analysis.PartialReasons, "; "),
        ". Give the tree's compile database", analyze::inputs::BuildDir,
        " or the Clang flags it needs", analyze::inputs::ExtraArgs, ", or accept a partial closure",
        inputs::AllowPartial);
  return llvm::Error::success();
}

llvm::Error Pipeline::loadPreviousManifest() {
  R.ManifestPath = R.Plan.NativeDir + "/" + ManifestFileName;
  std::string Full = joinPath(TargetRoot, R.ManifestPath);
  llvm::Expected<std::optional<std::string>> Text = readIfExists(Full);
  if (!Text)
    return Text.takeError();
  if (!*Text)
    return llvm::Error::success();
  llvm::Expected<Manifest> M = parseManifest(**Text, Full);
  if (!M)
    return M.takeError();
  if (M->Profile != P.Name)
    return inputError("domain '", R.Plan.Domain, "' was migrated with profile '", M->Profile, "' (",
                      Full, "); migrate it again with that profile", inputs::Profile);
  R.HadManifest = true;
  Previous.Recorded = std::move(*M);
  return llvm::Error::success();
}

llvm::Expected<std::vector<std::string>> Pipeline::generatedPaths() {
  json Base = baseContext(R.Plan, P);
  std::vector<std::string> Paths;
  for (const GeneratedFileSpec &Spec : P.Files) {
    std::vector<json> Contexts;
    if (!Spec.PerOp) {
      Contexts.push_back(Base);
    } else {
      for (const PlannedOp &Op : R.Plan.Ops) {
        json PerOp = Base;
        PerOp["op"] = {{"name", Op.Name}};
        Contexts.push_back(std::move(PerOp));
      }
    }
    for (const json &Context : Contexts) {
      llvm::Expected<std::string> Path = renderTemplate(Spec.Path, Context, P.Name + ": file path");
      if (!Path)
        return Path.takeError();
      Paths.push_back(std::move(*Path));
    }
  }
  moveAsideFromGenerated(Paths);
  return Paths;
}

void Pipeline::moveAsideFromGenerated(const std::vector<std::string> &Generated) {
  // An upstream header named like the domain (mamba's selective_scan.h for
  // domain selective_scan) lands where the profile generates its binding
  // header; the ported file moves beside it, and its includes follow.
  std::set<std::string> Taken(Generated.begin(), Generated.end());
  for (const auto &[Up, Target] : R.Plan.FileMap)
    Taken.insert(Target);
  for (auto &[Up, Target] : R.Plan.FileMap) {
    if (!llvm::is_contained(Generated, Target))
      continue;
    Target = freeNameBeside(Target, Taken);
    Taken.insert(Target);
  }
}

UpstreamInfo Pipeline::upstream() const {
  UpstreamInfo Info = probeUpstream(R.Analysis.SourceRoot);
  if (!Options.UpstreamRepo.empty())
    Info.Repo = Options.UpstreamRepo;
  if (!Options.UpstreamCommit.empty())
    Info.Commit = Options.UpstreamCommit;
  if (Info.Repo.empty())
    Info.Repo = llvm::sys::path::filename(R.Analysis.SourceRoot).str();
  if (Info.Commit.empty()) {
    Info.Commit = "unversioned";
    Info.Dirty = true;
  }
  return Info;
}

llvm::Error Pipeline::rewrite(const UpstreamInfo &Upstream) {
  RewriteRequest Request;
  Request.SourceRoot = R.Analysis.SourceRoot;
  Request.FileMap = R.Plan.FileMap;
  Request.TUFlags = R.Analysis.TUFlags;
  Request.OtherTUFlags = R.Analysis.OtherTUFlags;
  // The rewrite's parses share the analysis' cache and preambles.
  Request.CacheDir = Options.Analysis.CacheDir;
  Request.UsePreamble = Options.Analysis.UsePreamble;
  Request.Jobs = Options.Analysis.Jobs;
  for (const std::string &Dir : R.Analysis.SubmoduleDirs)
    Request.ExternalDirs.push_back(joinPath(R.Analysis.SourceRoot, Dir));
  if (!R.Analysis.GpuArch.empty())
    Request.GpuArch = R.Analysis.GpuArch;
  for (const NamespaceRename &Rename : R.Plan.Renames)
    if (Rename.From != Rename.To)
      Request.Renames.push_back(Rename);
  Request.WrapGlobalInto = R.Plan.WrapGlobalInto;
  Request.Includes = R.Plan.Includes;
  Request.IncludeRoot = R.Plan.IncludeRoot;
  json Context = baseContext(R.Plan, P);
  Context["upstream"] = {
      {"repo", Upstream.Repo}, {"commit", Upstream.Commit}, {"dirty", Upstream.Dirty}};
  for (const auto &[Up, Target] : R.Plan.FileMap) {
    if (auto It = R.Analysis.Siblings.find(Up); It != R.Analysis.Siblings.end())
      Request.DropDefinitions[Up] = It->second;
    if (const analyze::ClosureFile *File = R.Analysis.file(Up))
      for (const analyze::DroppedInclude &Include : File->DroppedIncludes)
        Request.DropIncludeLines[Up].insert(Include.Line);
    Context["file"] = {{"upstream_path", Upstream.PathPrefix + Up}, {"target_path", Target}};
    llvm::Expected<std::string> Header =
        renderTemplate(P.ProvenanceComment, Context, P.Name + ": provenance_comment");
    if (!Header)
      return Header.takeError();
    Request.Headers[Up] = std::move(*Header);
  }
  llvm::Expected<RewriteResult> Rewritten = rewriteSources(Request);
  if (!Rewritten)
    return Rewritten.takeError();
  R.Issues = std::move(Rewritten->Issues);
  R.Rewrite = std::move(Rewritten->Stats);
  for (RewrittenFile &File : Rewritten->Files) {
    PlannedChange Change;
    Change.Path = File.TargetPath;
    Change.Kind = ChangeKind::Migrated;
    Change.NewContent = std::move(File.Content);
    Change.UpstreamPath = File.UpstreamPath;
    Change.Replacements = File.Replacements;
    Change.DroppedDefinitions = std::move(File.DroppedDefinitions);
    Change.LeftOut = std::move(File.LeftOut);
    if (llvm::Error E = addOwnedChange(std::move(Change)))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error Pipeline::derive() {
  SignatureRequest Request;
  Request.SourceRoot = R.Analysis.SourceRoot;
  // One signature per op, in the plan's order: the entries it registers.
  for (const analyze::ResolvedEntry &Entry : R.Analysis.Entries)
    if (!llvm::is_contained(Options.Unregistered, Entry.Requested))
      Request.Entries.push_back(Entry);
  for (const PlannedOp &Op : R.Plan.Ops)
    Request.OpNames.push_back(Op.Name);
  Request.TUFlags = R.Analysis.TUFlags;
  Request.OtherTUFlags = R.Analysis.OtherTUFlags;
  Request.DeclaredWrites = Options.DeclaredWrites;
  Request.WrittenPointerFields = R.Analysis.WrittenPointerFields;
  for (const std::string &Dir : R.Analysis.SubmoduleDirs)
    Request.ExternalDirs.push_back(joinPath(R.Analysis.SourceRoot, Dir));
  // The signature parse shares the analysis' cache and preamble.
  Request.CacheDir = Options.Analysis.CacheDir;
  Request.UsePreamble = Options.Analysis.UsePreamble;
  Request.Jobs = Options.Analysis.Jobs;
  llvm::Expected<std::vector<OpSignature>> Ops = deriveSignatures(Request, &R.Signatures);
  if (!Ops)
    return Ops.takeError();
  R.Ops = std::move(*Ops);
  return llvm::Error::success();
}

llvm::Error Pipeline::render(const UpstreamInfo &Upstream,
                             const std::vector<std::string> &Generated) {
  json Context = glueContext(R.Plan, P, R.Ops, Upstream, Generated, Options.ToolVersion);
  R.ThirdParty = thirdPartyDependencies(R.Analysis, R.Plan);
  for (ThirdPartyDependency &Party : R.ThirdParty)
    Party.Present = llvm::all_of(Party.Headers, [&](const std::string &Header) {
      return fs::exists(joinPath(TargetRoot, Header));
    });
  Context.update(buildFlagsContext(R.Analysis, R.Plan, R.ThirdParty));
  llvm::Expected<std::vector<GeneratedOutput>> Outputs =
      renderProfile(P, Context, TargetRoot, Options.Bootstrap);
  if (!Outputs)
    return Outputs.takeError();
  for (GeneratedOutput &Output : *Outputs) {
    if (Output.EditsTargetFile) {
      if (llvm::Error E = addEditedChange(Output))
        return E;
      continue;
    }
    PlannedChange Change;
    Change.Path = std::move(Output.Path);
    Change.Kind = ChangeKind::Generated;
    Change.NewContent = std::move(Output.Content);
    if (llvm::Error E = addOwnedChange(std::move(Change)))
      return E;
  }
  return llvm::Error::success();
}

/// A file the migration owns: overwriting it is safe only when the target
/// still holds what the previous migration wrote.
llvm::Error Pipeline::addOwnedChange(PlannedChange Change) {
  if (llvm::Error E = checkTargetPath(TargetRoot, Change.Path))
    return E;
  llvm::Expected<std::optional<std::string>> Old = readIfExists(joinPath(TargetRoot, Change.Path));
  if (!Old)
    return Old.takeError();
  if (!*Old) {
    Change.Action = ChangeAction::Create;
  } else {
    Change.OldContent = std::move(**Old);
    Change.Action =
        Change.OldContent == Change.NewContent ? ChangeAction::Unchanged : ChangeAction::Update;
    std::optional<std::string> Recorded = Previous.ownedSha(Change.Path);
    if (Change.Action == ChangeAction::Update && !Recorded)
      Change.Conflict = "exists and was not written by opmig";
    else if (Change.Action == ChangeAction::Update && *Recorded != sha256Hex(Change.OldContent))
      Change.Conflict = "edited since the last migration";
  }
  if (Change.Kind == ChangeKind::Migrated) {
    auto Upstream = readIfExists(joinPath(R.Analysis.SourceRoot, Change.UpstreamPath));
    if (!Upstream)
      return Upstream.takeError();
    R.NewManifest.Files.push_back({Change.UpstreamPath, Change.Path,
                                   sha256Hex(Upstream->value_or("")), sha256Hex(Change.NewContent),
                                   Change.LeftOut});
  } else {
    R.NewManifest.Generated.push_back({Change.Path, sha256Hex(Change.NewContent), {}});
  }
  R.Changes.push_back(std::move(Change));
  return llvm::Error::success();
}

/// A file the target owns: only the migration's blocks in it are checked.
llvm::Error Pipeline::addEditedChange(const GeneratedOutput &Output) {
  if (llvm::Error E = checkTargetPath(TargetRoot, Output.Path))
    return E;
  llvm::Expected<std::optional<std::string>> Old = readIfExists(joinPath(TargetRoot, Output.Path));
  if (!Old)
    return Old.takeError();
  PlannedChange Change;
  Change.Path = Output.Path;
  Change.Kind = ChangeKind::Edited;
  Change.NewContent = Output.Content;
  Change.OldContent = Old->value_or("");
  Change.Action = !*Old ? ChangeAction::Create
                        : (Change.OldContent == Change.NewContent ? ChangeAction::Unchanged
                                                                  : ChangeAction::Update);
  GeneratedFileRecord Record{Output.Path, "", {}};
  const GeneratedFileRecord *Before = Previous.generated(Output.Path);
  for (const GeneratedBlock &Block : Output.Blocks) {
    Change.Blocks.push_back(Block.Id);
    Record.Blocks[Block.Id] = sha256Hex(Block.Content);
    std::optional<std::string> Current =
        findGeneratedBlock(Change.OldContent, Output.Path, R.Plan.Domain, Block.Id);
    if (!Current || Change.Action == ChangeAction::Unchanged)
      continue;
    auto RecordedSha = Before ? Before->Blocks.find(Block.Id) : Record.Blocks.end();
    if (!Before || RecordedSha == Before->Blocks.end())
      Change.Conflict = "block " + R.Plan.Domain + ":" + Block.Id + " was not written by opmig";
    else if (RecordedSha->second != sha256Hex(*Current))
      Change.Conflict =
          "block " + R.Plan.Domain + ":" + Block.Id + " edited since the last migration";
  }
  // A file that --bootstrap created and no block lives in is the target's
  // alone: recorded, it would read as owned, and be removed by a later run.
  if (!Output.Blocks.empty())
    R.NewManifest.Generated.push_back(std::move(Record));
  R.Changes.push_back(std::move(Change));
  return llvm::Error::success();
}

/// The spec beside the manifest: derived from this run's signatures, with
/// every value the user set in the one the target holds kept. It is the
/// user's file as much as opmig's, so an edit is no conflict; one that no
/// longer reads stops the migration rather than lose the user's work.
llvm::Error Pipeline::addValidationSpec() {
  PlannedChange Change;
  Change.Path = R.Plan.NativeDir + "/" + ValidationSpecFileName;
  Change.Kind = ChangeKind::ValidationSpec;
  if (llvm::Error E = checkTargetPath(TargetRoot, Change.Path))
    return E;
  R.Spec.Domain = R.Plan.Domain;
  for (const OpSignature &Sig : R.Ops)
    R.Spec.Ops.push_back(Sig.Validation);
  std::string Full = joinPath(TargetRoot, Change.Path);
  llvm::Expected<std::optional<std::string>> Old = readIfExists(Full);
  if (!Old)
    return Old.takeError();
  Change.Action = ChangeAction::Create;
  if (*Old) {
    llvm::Expected<ValidationSpec> Previous = parseValidationSpec(**Old, ConfigSyntax::Json, Full);
    if (!Previous)
      return inputError(llvm::toString(Previous.takeError()),
                        "; the validation spec holds what you filled in, so it is not "
                        "overwritten: correct it, or remove it to start from a fresh one");
    R.Spec = mergeValidationSpecs(R.Spec, *Previous);
    Change.OldContent = std::move(**Old);
  }
  Change.NewContent = serializeValidationSpec(R.Spec);
  if (*Old)
    Change.Action =
        Change.OldContent == Change.NewContent ? ChangeAction::Unchanged : ChangeAction::Update;
  R.NewManifest.Generated.push_back(
      {Change.Path, sha256Hex(Change.NewContent), {}, /*UserEditable=*/true});
  R.Changes.push_back(std::move(Change));
  return llvm::Error::success();
}

/// Files the previous migration wrote that this one no longer produces
/// (the closure shrank, or an entry was dropped).
void Pipeline::addRemovals() {
  if (!Previous.Recorded)
    return;
  std::vector<std::string> Owned;
  for (const MigratedFileRecord &F : Previous.Recorded->Files)
    Owned.push_back(F.TargetPath);
  for (const GeneratedFileRecord &G : Previous.Recorded->Generated)
    if (G.Blocks.empty())
      Owned.push_back(G.TargetPath);
  for (const std::string &Path : Owned) {
    if (llvm::any_of(R.Changes, [&](const PlannedChange &C) { return C.Path == Path; }))
      continue;
    auto Old = readIfExists(joinPath(TargetRoot, Path));
    if (!Old || !*Old) {
      llvm::consumeError(Old.takeError());
      continue;
    }
    PlannedChange Change;
    Change.Path = Path;
    Change.Kind = Previous.migrated(Path) ? ChangeKind::Migrated : ChangeKind::Generated;
    Change.Action = ChangeAction::Remove;
    Change.OldContent = std::move(**Old);
    if (*Previous.ownedSha(Path) != sha256Hex(Change.OldContent))
      Change.Conflict = "edited since the last migration";
    R.Changes.push_back(std::move(Change));
  }
}

void Pipeline::addManifest() {
  Manifest &M = R.NewManifest;
  M.ToolVersion = Options.ToolVersion;
  M.Profile = P.Name;
  M.Spec = P.Spec;
  M.Domain = R.Plan.Domain;
  M.Entries = Options.Analysis.Entries;
  for (size_t I = 0; I < R.Ops.size(); ++I)
    M.Ops.push_back({R.Plan.Ops[I].Name, R.Plan.Ops[I].TargetFunction,
                     R.Plan.Ops[I].UpstreamFunction, R.Ops[I].Schema, R.Ops[I].FakeDerived});
  M.Renames = R.Plan.Renames;
  M.WrapGlobalInto = R.Plan.WrapGlobalInto;
  M.Build = buildRecord(R.Analysis, R.Plan, R.ThirdParty);
  auto ByTarget = [](const auto &A, const auto &B) { return A.TargetPath < B.TargetPath; };
  std::sort(M.Files.begin(), M.Files.end(), ByTarget);
  std::sort(M.Generated.begin(), M.Generated.end(), ByTarget);

  PlannedChange Change;
  Change.Path = R.ManifestPath;
  Change.Kind = ChangeKind::Manifest;
  Change.NewContent = serializeManifest(M);
  auto Old = readIfExists(joinPath(TargetRoot, Change.Path));
  if (Old && *Old)
    Change.OldContent = std::move(**Old);
  else
    llvm::consumeError(Old.takeError());
  Change.Action = !R.HadManifest ? ChangeAction::Create
                                 : (Change.OldContent == Change.NewContent ? ChangeAction::Unchanged
                                                                           : ChangeAction::Update);
  R.Changes.push_back(std::move(Change));
}

llvm::Expected<MigrationResult> Pipeline::run() {
  llvm::Expected<Profile> Loaded = loadProfile(Options.Profile, Options.ProfilesDir);
  if (!Loaded)
    return Loaded.takeError();
  P = std::move(*Loaded);
  if (llvm::Error E = checkDomainName(Options.Domain))
    return E;
  if (llvm::Error E = checkProvenanceValues(Options))
    return E;
  for (const std::string &Spec : Options.Flatten) {
    llvm::Expected<std::string> Prefix = parseFlattenPrefix(Spec);
    if (!Prefix)
      return Prefix.takeError();
    if (!llvm::is_contained(Flatten, *Prefix))
      Flatten.push_back(std::move(*Prefix));
  }
  if (llvm::Error E = checkTarget())
    return E;
  if (llvm::Error E = analyze())
    return E;
  llvm::Expected<MigrationPlan> Plan = planMigration(
      R.Analysis, P, PlanOptions{Options.Domain, Options.Renames, Flatten, Options.Unregistered});
  if (!Plan)
    return Plan.takeError();
  R.Plan = std::move(*Plan);
  if (llvm::Error E = loadPreviousManifest())
    return E;
  llvm::Expected<std::vector<std::string>> Generated = generatedPaths();
  if (!Generated)
    return Generated.takeError();
  UpstreamInfo Upstream = upstream();
  R.NewManifest.Upstream = Upstream;
  if (llvm::Error E = rewrite(Upstream))
    return E;
  if (llvm::Error E = derive())
    return E;
  if (llvm::Error E = render(Upstream, *Generated))
    return E;
  if (llvm::Error E = addValidationSpec())
    return E;
  addRemovals();
  addManifest();
  std::sort(R.Changes.begin(), R.Changes.end(),
            [](const PlannedChange &A, const PlannedChange &B) { return A.Path < B.Path; });
  if (llvm::Error E = checkChangesOutsideSource())
    return E;
  return std::move(R);
}

} // namespace

llvm::Expected<MigrationResult> prepareMigration(const MigrateOptions &Options) {
  return Pipeline(Options).run();
}

} // namespace opmig::migrate
