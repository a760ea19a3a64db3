//===- Review.cpp - The checks of `opmig review` and its verdict ----------===//

#include "opmig/audit/Review.h"

#include "UpstreamNameLeaks.h"
#include "nlohmann/json.hpp"
#include "opmig/analyze/Errors.h"
#include "opmig/migrate/Manifest.h"
#include "opmig/migrate/TargetEdits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <set>

namespace opmig::audit {

namespace {

std::optional<std::string> readText(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

std::string join(const std::string &Root, const std::string &Relative) {
  llvm::SmallString<256> Path(Root);
  llvm::sys::path::append(Path, Relative);
  return std::string(Path);
}

/// Folders a manifest never lives in: version control and build output.
bool skippedFolder(llvm::StringRef Name) {
  return Name == ".git" || Name == "node_modules" || Name == ".opmig-staging" ||
         Name == "__pycache__" || Name.starts_with("build");
}

/// Every `opmig-manifest.json` under `Root` that `Exclude` does not match,
/// relative, sorted.
std::vector<std::string> findManifests(const std::string &Root,
                                       const std::vector<PathGlob> &Exclude) {
  std::vector<std::string> Found;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (It->type() == llvm::sys::fs::file_type::directory_file && skippedFolder(Name)) {
      It.no_push();
      continue;
    }
    if (Name != migrate::ManifestFileName)
      continue;
    std::string Relative = llvm::StringRef(It->path()).drop_front(Root.size() + 1).str();
    if (!matchesAny(Exclude, Relative))
      Found.push_back(std::move(Relative));
  }
  llvm::sort(Found);
  return Found;
}

struct Located {
  migrate::Manifest M;
  std::string Path; ///< Relative to the target.
};

llvm::Expected<Located> locateManifest(const ReviewOptions &Options) {
  std::vector<Located> Matches;
  for (const std::string &Relative : findManifests(Options.Target, Options.Exclude)) {
    std::optional<std::string> Text = readText(join(Options.Target, Relative));
    if (!Text)
      continue;
    llvm::Expected<migrate::Manifest> M = migrate::parseManifest(*Text, Relative);
    if (!M)
      return M.takeError();
    if (M->Domain == Options.Domain)
      Matches.push_back({std::move(*M), Relative});
  }
  if (Matches.empty())
    return inputError("no ", migrate::ManifestFileName, " of domain '", Options.Domain, "' under ",
                      Options.Target, "; was it migrated with opmig migrate?");
  if (Matches.size() > 1)
    return inputError("two manifests of domain '", Options.Domain, "': ", Matches[0].Path, " and ",
                      Matches[1].Path,
                      "; exclude the copy that is not the migration (--exclude, "
                      "or `exclude:` in .opmig.yaml)");
  return std::move(Matches.front());
}

class Reviewer {
public:
  /// `Closure`: the upstream files a fresh analysis would port, if known.
  Reviewer(const ReviewOptions &Options, const Located &L,
           std::optional<std::set<std::string>> Closure)
      : Options(Options), L(L), Closure(std::move(Closure)) {}

  std::vector<ReviewFinding> run() {
    checkMigratedFiles();
    checkGenerated();
    checkOverCopy();
    if (!Options.Source.empty())
      checkUpstream();
    if (Closure)
      checkClosure(*Closure);
    for (NameLeak &Leak : findUpstreamNameLeaks(L.M, Options.Target, L.Path))
      Findings.push_back(
          {ReviewKind::NameLeak, std::move(Leak.Path), std::move(Leak.Message), Leak.Line});
    return std::move(Findings);
  }

private:
  void add(ReviewKind Kind, std::string Path, std::string Message) {
    Findings.push_back({Kind, std::move(Path), std::move(Message)});
  }

  void checkMigratedFiles() {
    for (const migrate::MigratedFileRecord &F : L.M.Files) {
      std::optional<std::string> Text = readText(join(Options.Target, F.TargetPath));
      if (!Text) {
        add(ReviewKind::MissingFile, F.TargetPath,
            "in the closure (from " + F.UpstreamPath + ") but not in the target");
        continue;
      }
      std::string Upstream = L.M.Upstream.PathPrefix + F.UpstreamPath;
      llvm::StringRef FirstLine = llvm::StringRef(*Text).split('\n').first;
      if (!FirstLine.ends_with(Upstream))
        add(ReviewKind::MissingProvenance, F.TargetPath,
            "the first line does not name its upstream file " + Upstream);
    }
  }

  void checkGenerated() {
    for (const migrate::GeneratedFileRecord &G : L.M.Generated) {
      std::optional<std::string> Text = readText(join(Options.Target, G.TargetPath));
      if (!Text) {
        add(ReviewKind::MissingFile, G.TargetPath,
            "generated by the migration but not in the target");
        continue;
      }
      if (G.Blocks.empty()) {
        if (migrate::sha256Hex(*Text) != G.Sha256)
          add(ReviewKind::EditedGlue, G.TargetPath,
              "generated file edited by hand since the migration");
        continue;
      }
      for (const auto &[Id, Sha] : G.Blocks) {
        std::optional<std::string> Block =
            migrate::findGeneratedBlock(*Text, G.TargetPath, L.M.Domain, Id);
        if (!Block)
          add(ReviewKind::EditedGlue, G.TargetPath,
              "generated block " + L.M.Domain + ":" + Id + " is gone");
        else if (migrate::sha256Hex(*Block) != Sha)
          add(ReviewKind::EditedGlue, G.TargetPath,
              "generated block " + L.M.Domain + ":" + Id + " edited by hand since the migration");
      }
    }
  }

  /// Files beside the manifest that the migration neither copied nor
  /// generated: copied by hand, or left over from an earlier closure.
  void checkOverCopy() {
    std::set<std::string> Known{L.Path};
    for (const migrate::MigratedFileRecord &F : L.M.Files)
      Known.insert(F.TargetPath);
    for (const migrate::GeneratedFileRecord &G : L.M.Generated)
      Known.insert(G.TargetPath);
    std::string NativeDir = llvm::sys::path::parent_path(L.Path).str();
    std::string Root = join(Options.Target, NativeDir);
    std::vector<std::string> Extra;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Root, EC), End; It != End && !EC;
         It.increment(EC)) {
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (skippedFolder(llvm::sys::path::filename(It->path())))
          It.no_push();
        continue;
      }
      std::string Relative =
          llvm::StringRef(It->path()).drop_front(Options.Target.size() + 1).str();
      if (!Known.count(Relative))
        Extra.push_back(Relative);
    }
    llvm::sort(Extra);
    for (const std::string &Path : Extra)
      add(ReviewKind::OverCopy, Path, "in the native folder but neither migrated nor generated");
  }

  void checkUpstream() {
    for (const migrate::MigratedFileRecord &F : L.M.Files) {
      std::optional<std::string> Text = readText(join(Options.Source, F.UpstreamPath));
      if (!Text)
        add(ReviewKind::StaleProvenance, F.UpstreamPath, "no longer exists upstream");
      else if (migrate::sha256Hex(*Text) != F.UpstreamSha256)
        add(ReviewKind::StaleProvenance, F.UpstreamPath,
            "changed upstream since the migration (migrated as " + F.TargetPath + ")");
    }
  }

  /// The recorded closure against a fresh one: files it now needs are
  /// missing, files it no longer needs are over-copied.
  void checkClosure(const std::set<std::string> &Fresh) {
    std::set<std::string> Recorded;
    for (const migrate::MigratedFileRecord &F : L.M.Files) {
      Recorded.insert(F.UpstreamPath);
      if (!Fresh.count(F.UpstreamPath))
        add(ReviewKind::OverCopy, F.TargetPath,
            "migrated from " + F.UpstreamPath + ", which the recomputed closure no longer needs");
    }
    for (const std::string &Up : Fresh)
      if (!Recorded.count(Up))
        add(ReviewKind::MissingFile, Up,
            "the recomputed closure needs this upstream file; it was not migrated (re-run opmig "
            "migrate)");
  }

  const ReviewOptions &Options;
  const Located &L;
  std::optional<std::set<std::string>> Closure;
  std::vector<ReviewFinding> Findings;
};

/// The upstream files a migration of the manifest's entries would port
/// now (registration files are regenerated, not ported); nullopt with the
/// reason in `Why` when the analysis is partial.
llvm::Expected<std::optional<std::set<std::string>>>
recomputeClosure(const ReviewOptions &Options, const migrate::Manifest &M, std::string &Why) {
  analyze::AnalyzeOptions Analyze = *Options.Recompute;
  Analyze.SourceRoot = Options.Source;
  Analyze.Entries = M.Entries;
  llvm::Expected<analyze::AnalysisResult> Result = analyze::analyzeClosure(Analyze);
  if (!Result)
    return Result.takeError();
  if (Result->isPartial()) {
    Why = "the analysis of --source was partial (" + llvm::join(Result->PartialReasons, "; ") +
          "); pass the Clang flags the migration used after --";
    return std::nullopt;
  }
  std::set<std::string> Files;
  for (const analyze::ClosureFile &F : Result->Files)
    if (F.Role != analyze::FileRole::Registration)
      Files.insert(F.Path);
  return Files;
}

std::string countOf(const std::vector<ReviewFinding> &Findings, ReviewKind K) {
  size_t N = llvm::count_if(Findings, [&](const ReviewFinding &F) { return F.Kind == K; });
  return N ? std::to_string(N) + " " + toString(K) : "";
}

/// The verdict and its reasons: missing pieces first, then signs of a
/// copy nobody looked at.
void judge(ReviewResult &R) {
  for (ReviewKind K : {ReviewKind::MissingFile, ReviewKind::StaleProvenance})
    if (std::string C = countOf(R.Findings, K); !C.empty()) {
      R.Outcome = Verdict::Incomplete;
      R.Reasons.push_back(C);
    }
  if (R.Outcome == Verdict::Incomplete)
    return;
  for (ReviewKind K : {ReviewKind::OverCopy, ReviewKind::MissingProvenance, ReviewKind::EditedGlue,
                       ReviewKind::NameLeak, ReviewKind::UntestedLayer})
    if (std::string C = countOf(R.Findings, K); !C.empty()) {
      R.Outcome = Verdict::Mechanical;
      R.Reasons.push_back(C);
    }
  if (R.Outcome == Verdict::Thoughtful)
    R.Reasons.push_back(std::string("every closure file is there with its provenance, nothing "
                                    "extra, the generated glue as generated, no upstream name in "
                                    "the API") +
                        (R.Coverage.empty() ? "" : ", a test for every required validation layer"));
}

/// The coverage matrix, and a finding per required layer without a test.
llvm::Error addCoverage(const ReviewOptions &Options, const Located &L, ReviewResult &R) {
  llvm::Expected<std::vector<ValidationLayer>> Layers = loadValidationLayers(Options.LayersFile);
  if (!Layers)
    return Layers.takeError();
  CoverageInput Input{Options.Target, L.M.Domain, L.M.Profile, {}, Options.Exclude};
  for (const migrate::ManifestOp &Op : L.M.Ops)
    Input.Ops.push_back(Op.Name);
  llvm::Expected<std::vector<LayerCoverage>> Coverage = measureCoverage(Input, *Layers);
  if (!Coverage)
    return Coverage.takeError();
  R.Coverage = std::move(*Coverage);
  for (const LayerCoverage &C : R.Coverage) {
    if (!C.Required || !C.Tests.empty())
      continue;
    std::string Message = "no test covers the " + C.Title + " layer, asked for by " + C.Spec;
    if (!C.Placeholders.empty())
      Message += "; placeholders that always skip: " + llvm::join(C.Placeholders, ", ");
    R.Findings.push_back({ReviewKind::UntestedLayer, L.Path, Message, 0});
  }
  return llvm::Error::success();
}

} // namespace

const char *toString(ReviewKind K) {
  switch (K) {
  case ReviewKind::MissingFile:
    return "missing-file";
  case ReviewKind::OverCopy:
    return "over-copy";
  case ReviewKind::MissingProvenance:
    return "missing-provenance";
  case ReviewKind::EditedGlue:
    return "edited-glue";
  case ReviewKind::StaleProvenance:
    return "stale-provenance";
  case ReviewKind::NameLeak:
    return "name-leak";
  case ReviewKind::UntestedLayer:
    return "untested-layer";
  }
  llvm_unreachable("unknown review kind");
}

const char *toString(Verdict V) {
  switch (V) {
  case Verdict::Thoughtful:
    return "thoughtful";
  case Verdict::Mechanical:
    return "mechanical";
  case Verdict::Incomplete:
    return "incomplete";
  }
  llvm_unreachable("unknown verdict");
}

llvm::Expected<ReviewResult> reviewMigration(const ReviewOptions &Input) {
  ReviewOptions Options = Input;
  while (Options.Target.size() > 1 && Options.Target.back() == '/')
    Options.Target.pop_back();
  if (!llvm::sys::fs::is_directory(Options.Target))
    return inputError("'", Options.Target, "' is not a directory");
  if (!Options.Source.empty() && !llvm::sys::fs::is_directory(Options.Source))
    return inputError("'", Options.Source, "' is not a directory");
  llvm::Expected<Located> L = locateManifest(Options);
  if (!L)
    return L.takeError();
  ReviewResult R;
  R.Domain = Options.Domain;
  R.ManifestPath = L->Path;
  std::optional<std::set<std::string>> Closure;
  if (!Options.Source.empty() && Options.Recompute) {
    llvm::Expected<std::optional<std::set<std::string>>> Fresh =
        recomputeClosure(Options, L->M, R.ClosureNotCompared);
    if (!Fresh)
      return Fresh.takeError();
    Closure = std::move(*Fresh);
  }
  R.Findings = Reviewer(Options, *L, std::move(Closure)).run();
  if (!Options.LayersFile.empty())
    if (llvm::Error E = addCoverage(Options, *L, R))
      return E;
  judge(R);
  return R;
}

std::vector<std::string> migratedDomains(const std::string &Target,
                                         const std::vector<PathGlob> &Exclude) {
  std::set<std::string> Domains;
  for (const std::string &Relative : findManifests(Target, Exclude))
    if (std::optional<std::string> Text = readText(join(Target, Relative))) {
      llvm::Expected<migrate::Manifest> M = migrate::parseManifest(*Text, Relative);
      if (M)
        Domains.insert(M->Domain);
      else
        llvm::consumeError(M.takeError());
    }
  return {Domains.begin(), Domains.end()};
}

std::string renderReviewText(const ReviewResult &Result) {
  std::string Out;
  for (const ReviewFinding &F : Result.Findings)
    Out += std::string(toString(F.Kind)) + " " + F.Path +
           (F.Line ? ":" + std::to_string(F.Line) : "") + ": " + F.Message + "\n";
  if (!Result.ClosureNotCompared.empty())
    Out += "note: closure not recomputed: " + Result.ClosureNotCompared + "\n";
  if (!Result.Coverage.empty())
    Out += "validation layers:\n";
  for (const LayerCoverage &C : Result.Coverage) {
    std::string Tests = C.Tests.empty() ? "no test" : llvm::join(C.Tests, ", ");
    if (!C.Placeholders.empty())
      Tests += " (placeholder: " + llvm::join(C.Placeholders, ", ") + ")";
    Out += "  " + C.Id + std::string(C.Id.size() < 14 ? 14 - C.Id.size() : 1, ' ') +
           (C.Required ? "required  " : "optional  ") + Tests + "\n";
  }
  return Out + "verdict: " + toString(Result.Outcome) + " (" + llvm::join(Result.Reasons, "; ") +
         ")\n";
}

std::string renderReviewJson(const ReviewResult &Result) {
  nlohmann::ordered_json Doc;
  Doc["schema"] = "opmig.review/1";
  Doc["domain"] = Result.Domain;
  Doc["manifest"] = Result.ManifestPath;
  Doc["findings"] = nlohmann::ordered_json::array();
  for (const ReviewFinding &F : Result.Findings)
    Doc["findings"].push_back(
        {{"kind", toString(F.Kind)}, {"path", F.Path}, {"line", F.Line}, {"message", F.Message}});
  Doc["coverage"] = nlohmann::ordered_json::array();
  for (const LayerCoverage &C : Result.Coverage)
    Doc["coverage"].push_back({{"layer", C.Id},
                               {"title", C.Title},
                               {"spec", C.Spec},
                               {"required", C.Required},
                               {"tests", C.Tests},
                               {"placeholders", C.Placeholders}});
  Doc["closure_not_compared"] = Result.ClosureNotCompared;
  Doc["verdict"] = toString(Result.Outcome);
  Doc["reasons"] = Result.Reasons;
  return Doc.dump(2) + "\n";
}

} // namespace opmig::audit
