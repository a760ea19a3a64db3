//===- Review.h - Judge a migration the way a reviewer would ----*- C++ -*-===//
//
// The library behind `opmig review`. It reads the domain's
// `opmig-manifest.json` in the target and compares it with the files there
// (and, with a source tree, with upstream):
//
//   ReviewOptions Options;
//   Options.Target = "path/to/cache-dit";
//   Options.Domain = "rope";
//   llvm::Expected<ReviewResult> Result = reviewMigration(Options);
//
// Every problem is a Finding whose id is its kind (ReviewKinds.h); the
// verdict follows from the kinds present (docs/user-guide.md, "opmig review", has the criteria).
// With `Options.ValidationReports`, a layer `opmig validate` passed covers the
// review layer it proves (ValidateReport.h). With `Options.BuildCheck`, every C++/CUDA TU of the
// domain is compiled by nvcc as it is on disk, with the flags the manifest records for its glue,
// and the objects are linked into one library whose undefined symbols must be defined by what it is
// loaded with (torch, the CUDA and C++ runtimes).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_AUDIT_REVIEW_H
#define OPMIG_AUDIT_REVIEW_H

#include "opmig/audit/PathGlob.h"
#include "opmig/audit/ReviewKinds.h"
#include "opmig/audit/ValidationCoverage.h"
#include "opmig/support/Errors.h"
#include "opmig/support/Finding.h"
#include "opmig/support/LinkCheck.h"
#include "opmig/support/TreeCompile.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace opmig::audit {

/// How the build check compiles a domain beyond what its manifest records.
struct BuildCheckOptions {
  std::string CudaPath;                      ///< Empty: $CUDA_HOME, /usr/local/cuda, PATH.
  std::vector<std::string> TorchIncludeDirs; ///< Empty: the torch python3 would import.
  /// More flags for every TU, in Clang spelling (`-isystem <stubs>`: what
  /// follows `--`).
  std::vector<std::string> ExtraArgs;
  std::string GpuArch; ///< Empty: the manifest's, else sm_90.
  unsigned Jobs = 0;   ///< Parallel compiles; 0 means one per core.
  /// Where the objects are kept, and taken from when every input of an
  /// earlier compile is unchanged (ObjectCache.h); empty: compile each.
  std::string ObjectCacheDir;
};

/// What a migration of some entries would port from an upstream tree now.
struct UpstreamClosure {
  /// Upstream-relative paths, registration files left out (they are
  /// regenerated, not ported).
  std::set<std::string> Files;
  /// Non-empty when the closure could not be computed with certainty (a
  /// partial analysis): why, and what to do. `Files` is then not compared.
  std::string NotComparedBecause;
};

using ClosureFinder = std::function<llvm::Expected<UpstreamClosure>(
    const std::string &Source, const std::vector<std::string> &Entries)>;

struct ReviewOptions {
  std::string Target; ///< Root of the target repository.
  std::string Domain; ///< The migrated domain, as `opmig migrate --domain` named it.
  std::string Source; ///< The upstream tree `--source` named; empty: not compared.
  /// Manifests at paths these match are not looked at (the gate's
  /// `exclude`: golden copies of migrations, fixtures).
  std::vector<PathGlob> Exclude;
  /// The validation layers (rules/review/validation-layers.yaml); empty:
  /// no coverage matrix.
  std::string LayersFile;
  /// With `Source`: computes the closure of the manifest's entries in it
  /// now. The caller supplies it (the driver runs an analysis), so that the
  /// review needs no parser of its own; unset: not compared.
  ClosureFinder FindClosure;
  /// Compile the domain's TUs with nvcc; nullopt: not asked for.
  std::optional<BuildCheckOptions> BuildCheck;
  /// `opmig validate` JSON reports of the domain (ValidateReport.h): a layer
  /// one passed covers the review layer it proves. Needs `LayersFile`.
  std::vector<std::string> ValidationReports;
};

/// The options of ReviewOptions that the review's messages name (see
/// InputName in Errors.h).
namespace inputs {
inline constexpr InputName ReviewExclude{"audit.ReviewOptions.Exclude"};
inline constexpr InputName BuildGpuArch{"audit.BuildCheckOptions.GpuArch"};
} // namespace inputs

enum class Verdict { Thoughtful, Mechanical, Incomplete };
const char *toString(Verdict V); ///< `thoughtful`, `mechanical`, `incomplete`.

/// What the build check did: each TU's verdict, or why it did not run (then
/// nothing is claimed about the tree).
struct BuildCheckResult {
  bool Asked = false; ///< ReviewOptions::BuildCheck was set.
  bool Ran = false;
  std::string NotRunBecause;
  std::string Nvcc, GpuArch;
  std::vector<CompiledTU> TUs; ///< Migrated, then generated, by path.
  /// When every TU compiles, their objects linked into one library; why not
  /// otherwise (then nothing is claimed about the link).
  bool Linked = false;
  std::string LinkNotRunBecause;
  LinkResult Link;

  size_t compiling() const; ///< How many TUs compile.
  size_t reused() const;    ///< How many objects came from the object cache.
};

/// A validate report the review took as evidence.
struct ValidationReportUse {
  std::string Path;   ///< Relative to the target when inside it, else as given.
  std::string Target; ///< Where validate ran (its machine's path).
  /// Non-empty when the report is older than a file of the domain: which,
  /// and what to do. Its layers still count.
  std::string StaleBecause;
};

struct ReviewResult {
  std::string Domain;
  std::string ManifestPath;  ///< Relative to the target root.
  std::string Profile, Spec; ///< As the manifest records them.
  /// Why every validation layer is required (a manifest naming no spec, or
  /// one the layers file does not list); empty when the spec's are.
  std::string AllLayersRequiredBecause;
  /// In check order, then by path; ids are ReviewKinds (ReviewKinds.h).
  std::vector<Finding> Findings;
  Verdict Outcome = Verdict::Thoughtful;
  std::vector<std::string> Reasons;            ///< Why the verdict is what it is.
  std::vector<LayerCoverage> Coverage;         ///< Empty without a layers file.
  std::vector<ValidationReportUse> Validation; ///< In the order given.
  /// Why the closure was not compared although asked for (a partial
  /// analysis); empty when it was, or was not asked for.
  std::string ClosureNotCompared;
  BuildCheckResult Build;
};

/// Reviews the migration of `Options.Domain` in `Options.Target`. InputError
/// when the target is not a folder, no manifest of the domain is found (or
/// more than one), the manifest or the layers file does not parse,
/// python3 (which reads the tests) is missing, the closure cannot be
/// recomputed (an entry upstream no longer has), the build check's
/// `GpuArch` is no NVIDIA architecture, or a validate report cannot be read,
/// is not `opmig.validate/1` or is of another domain.
llvm::Expected<ReviewResult> reviewMigration(const ReviewOptions &Options);

/// The domains of every `opmig-manifest.json` under `Target`, sorted and
/// unique (manifests that do not parse or that `Exclude` matches are
/// skipped).
std::vector<std::string> migratedDomains(const std::string &Target,
                                         const std::vector<PathGlob> &Exclude = {});

} // namespace opmig::audit

#endif
