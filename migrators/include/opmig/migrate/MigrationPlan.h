//===- MigrationPlan.h - Where each closure file goes, and as what -*- C++ -*-===//
//
// The decisions of a migration before any text is produced: the target
// path of every closure file, the namespace renames, the op names and the
// names the entries get in the target. For the cache-dit profile and domain
// `attn`:
//
//   csrc/attention/merge.cu       -> csrc/kernels/attn/attention/merge.cu
//   csrc/common/checks.h          -> csrc/kernels/attn/common/checks.h
//   csrc/torch_bindings.cpp          (registration: regenerated, not copied)
//   namespace sample_ops          -> cache_dit::attn   (profile default)
//   global merge_attn_states      -> cache_dit::attn::merge_attn_states
//
// Closure files keep their layout below the deepest folder they all share,
// except those under a `--flatten` prefix (FileLayout.h).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_MIGRATIONPLAN_H
#define OPMIG_MIGRATE_MIGRATIONPLAN_H

#include "opmig/analyze/AnalysisResult.h"
#include "opmig/migrate/Profile.h"
#include "opmig/migrate/SourceRewriter.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

struct PlanOptions {
  std::string Domain;
  /// `--rename-namespace OLD=NEW`; `OLD=OLD` keeps a namespace as it is
  /// (e.g. an upstream-derived `svdq::` tree).
  std::vector<NamespaceRename> ExplicitRenames;
  /// `--flatten` prefixes, as parseFlattenPrefix returns them.
  std::vector<std::string> Flatten;
  /// `--no-register` entries, as given with `--entry`: ported, no op.
  std::vector<std::string> Unregistered;
};

struct PlannedOp {
  std::string Name;             ///< Registered op name.
  std::string UpstreamFunction; ///< Qualified, in upstream.
  std::string TargetFunction;   ///< Qualified, in the target.
  std::string UpstreamFile;     ///< Where the entry is defined, relative to --source.
};

/// A submodule of the upstream that the closure includes headers of: the
/// target keeps it under its third-party folder, and the build glue points
/// there. migrate reports it; vendoring it is the target's decision.
struct ThirdPartyDependency {
  std::string Name;                     ///< `spdlog`.
  std::string UpstreamDir;              ///< `third_party/spdlog`, relative to --source.
  std::string TargetDir;                ///< `csrc/third_party/spdlog`, target-relative.
  std::vector<std::string> IncludeDirs; ///< Target-relative, as the build must pass them.
  std::vector<std::string> Headers;     ///< Target-relative, those the closure includes.
  bool Present = false;                 ///< Every header is in the target already.
};

struct MigrationPlan {
  std::string Domain;
  std::string NativeDir;     ///< Target-relative.
  std::string Namespace;     ///< The profile's namespace for this domain.
  std::string OpNamespace;   ///< torch.library namespace.
  std::string Extension;     ///< Python extension module; may be empty.
  std::string IncludeRoot;   ///< Target-relative.
  std::string ThirdPartyDir; ///< Target-relative; where submodules the closure uses go.
  IncludeStyle Includes = IncludeStyle::RelativeToRoot;
  std::map<std::string, std::string> FileMap; ///< Upstream path -> target path.
  std::vector<std::string> Flattened;         ///< The `--flatten` prefixes applied.
  std::vector<std::string> Regenerated;       ///< Registration files not copied.
  std::vector<NamespaceRename> Renames;
  std::string WrapGlobalInto;
  /// Entries ported without an op (`--no-register`): kernel-level code a
  /// torch-facing wrapper of the target calls. Upstream qualified names.
  std::vector<std::string> Unregistered;
  std::vector<PlannedOp> Ops; ///< One per entry, in entry order.
};

/// A `--domain` must be a lower-case identifier: it becomes a folder, a
/// C++ namespace and a Python module name.
llvm::Error checkDomainName(const std::string &Domain);

/// Parses `OLD=NEW` (qualified C++ namespace names, no leading `::`).
llvm::Expected<NamespaceRename> parseNamespaceRename(const std::string &Spec);

/// The names `P` gives domain `Domain` (native dir, namespaces, extension),
/// which need no analysis; the rest of the plan is empty.
llvm::Expected<MigrationPlan> planDomain(const Profile &P, const std::string &Domain);

/// Plans the port of `Analysis` into a target following `P`.
llvm::Expected<MigrationPlan> planMigration(const analyze::AnalysisResult &Analysis,
                                            const Profile &P, const PlanOptions &Options);

} // namespace opmig::migrate

#endif
