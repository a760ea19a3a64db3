//===- Manifest.h - What a migration wrote, and from where ------*- C++ -*-===//
//
// `opmig-manifest.json` sits in the domain's native directory. It names the
// upstream repository, commit and dirty flag, the tool version and profile,
// the entries and ops, every migrated file with the sha256 of its upstream
// and migrated text, the namespace renames and every generated file or
// block. With it a re-run knows what it wrote before: unchanged files are not
// rewritten, files edited by hand since are not overwritten without
// `--force`, and a reviewer can diff against upstream later.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_MANIFEST_H
#define OPMIG_MIGRATE_MANIFEST_H

#include "opmig/migrate/SourceRewriter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

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

struct MigratedFileRecord {
  std::string UpstreamPath; ///< Relative to `--source`.
  std::string TargetPath;   ///< Relative to the target root.
  std::string UpstreamSha256;
  std::string MigratedSha256;
};

struct GeneratedFileRecord {
  std::string TargetPath;
  /// Owned files: the sha256 of the whole file. Target-owned files: empty,
  /// and `Blocks` holds the sha256 of each block by id.
  std::string Sha256;
  std::map<std::string, std::string> Blocks;
};

struct Manifest {
  std::string ToolVersion;
  std::string Profile;
  std::string Domain;
  UpstreamInfo Upstream;
  std::vector<std::string> Entries; ///< As requested.
  std::vector<ManifestOp> Ops;
  std::vector<NamespaceRename> Renames;
  std::string WrapGlobalInto;
  std::vector<MigratedFileRecord> Files;
  std::vector<GeneratedFileRecord> Generated;
};

/// The manifest as pretty-printed JSON, ending in a newline. Deterministic:
/// the same manifest always gives the same bytes, so an unchanged re-run
/// leaves the file alone.
std::string serializeManifest(const Manifest &M);

/// Parses a manifest; `Origin` names it in errors (InputError).
llvm::Expected<Manifest> parseManifest(llvm::StringRef Text, llvm::StringRef Origin);

/// Lower-case hex sha256 of `Data`.
std::string sha256Hex(llvm::StringRef Data);

} // namespace opmig::migrate

#endif
