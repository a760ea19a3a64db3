//===- Manifest.h - What a migration wrote, and from where ------*- C++ -*-===//
//
// `opmig-manifest.json` sits in the domain's native directory. It names the
// upstream repository, commit and dirty flag, the tool version, profile and
// the spec convention the profile follows, the entries and ops, every
// migrated file with the sha256 of its upstream and migrated text, the
// namespace renames, every generated file or block (the validation spec
// among them, marked as the user's to edit), and the flags the
// generated build glue compiles with. With it a re-run knows what it wrote
// before: unchanged files are not rewritten, files edited by hand since are
// not overwritten without `--force`, and a reviewer can diff against
// upstream, judge the tests by the spec and compile the domain later.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_MANIFEST_H
#define OPMIG_SUPPORT_MANIFEST_H

#include "opmig/support/NamespaceRename.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace opmig {

inline constexpr const char *ManifestSchemaVersion = "opmig.manifest/1";
inline constexpr const char *ManifestFileName = "opmig-manifest.json";

struct UpstreamInfo {
  std::string Repo;   ///< Remote URL, or what `--upstream-repo` said.
  std::string Commit; ///< Commit id, or what `--upstream-commit` said.
  bool Dirty = false; ///< The upstream tree had uncommitted changes.
  /// Path of `--source` inside the upstream repository (empty: its root);
  /// provenance paths are `PathPrefix` + the file's path in the tree.
  std::string PathPrefix;
};

struct ManifestOp {
  std::string Name;
  std::string CppFunction;      ///< In the target.
  std::string UpstreamFunction; ///< In upstream.
  std::string Schema;
  bool FakeDerived = false;
};

/// A stretch of an upstream file that migrate left out of its copy: the
/// sibling definitions the entries do not need (and the registration blocks
/// that name them), or an include only they needed. `opmig validate
/// --source` blanks the same stretches when it builds the upstream, so that
/// the upstream library needs no more of the tree than the port does.
struct LeftOutRange {
  unsigned FirstLine = 0, LastLine = 0; ///< 1-based, inclusive.
  unsigned Begin = 0, End = 0;          ///< Byte offsets, End exclusive.
  /// Qualified names of the definitions in it; empty for an include.
  std::vector<std::string> Definitions;
  std::string Include; ///< The include as spelled (`"x/y.h"`), or empty.
};

struct MigratedFileRecord {
  std::string UpstreamPath; ///< Relative to `--source`.
  std::string TargetPath;   ///< Relative to the target root.
  std::string UpstreamSha256;
  std::string MigratedSha256;
  /// What the copy leaves out of the upstream file, by offset. Absent in
  /// manifests of older opmig versions (read as nothing left out).
  std::vector<LeftOutRange> LeftOut;
};

struct GeneratedFileRecord {
  std::string TargetPath;
  /// Owned files: the sha256 of the whole file. Target-owned files: empty,
  /// and `Blocks` holds the sha256 of each block by id.
  std::string Sha256;
  std::map<std::string, std::string> Blocks;
  /// A file the user is meant to edit (the validation spec): `Sha256` is
  /// what migrate wrote, and an edit since is no hand edit to report; a
  /// re-run merges it instead of overwriting it.
  bool UserEditable = false;
};

/// What the generated build glue (setup.py, CMake, a JIT load) compiles the
/// domain with, so that `opmig review` can compile the tree as it is on disk
/// without the profile or the upstream. Absolute include dirs of the
/// upstream's machine (torch, Python, system) are not recorded: the review
/// finds torch itself.
struct BuildRecord {
  unsigned CxxStandard = 17;
  std::vector<std::string> Defines;     ///< `-DNAME[=VALUE]`, `-UNAME`.
  std::vector<std::string> IncludeDirs; ///< Relative to the target root.
  std::vector<std::string> NvccFlags;   ///< nvcc-only language flags.
  std::string GpuArch;                  ///< The device side the migration checked.
};

struct Manifest {
  std::string ToolVersion;
  std::string Profile;
  /// The spec convention the profile follows (`cache-dit`); it decides which
  /// validation layers a review requires. Empty in manifests of older
  /// opmig versions.
  std::string Spec;
  std::string Domain;
  UpstreamInfo Upstream;
  std::vector<std::string> Entries; ///< As requested.
  std::vector<ManifestOp> Ops;
  std::vector<NamespaceRename> Renames;
  std::string WrapGlobalInto;
  std::vector<MigratedFileRecord> Files;
  std::vector<GeneratedFileRecord> Generated;
  /// Absent in manifests of older opmig versions.
  std::optional<BuildRecord> Build;
};

/// The manifest as pretty-printed JSON, ending in a newline. Deterministic:
/// the same manifest always gives the same bytes, so an unchanged re-run
/// leaves the file alone.
std::string serializeManifest(const Manifest &M);

/// Parses a manifest; `Origin` names it in errors (InputError).
llvm::Expected<Manifest> parseManifest(llvm::StringRef Text, llvm::StringRef Origin);

} // namespace opmig

#endif
