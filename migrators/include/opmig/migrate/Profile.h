//===- Profile.h - A target repository's conventions, as data ---*- C++ -*-===//
//
// A profile is a JSON file (rules/profiles/<name>/profile.json, or any path)
// that describes where a target keeps native code, how it names namespaces
// and ops, and which files a migration generates or edits. The built-in
// ones are `cache-dit`, `veomni` and `generic`; docs/profiles.md explains how
// to write another. Nothing in the code branches on a profile's name.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_PROFILE_H
#define OPMIG_MIGRATE_PROFILE_H

#include "opmig/migrate/SourceRewriter.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::migrate {

/// A file the migration owns entirely, rendered from a template.
struct GeneratedFileSpec {
  std::string Path;     ///< Target-relative, a template (`{{domain}}`).
  std::string Template; ///< Template file, relative to the profile's folder.
  bool PerOp = false;   ///< Rendered once per op, with `op` in the context.
};

/// Code that `--bootstrap` writes into a target file (unmarked: it is the
/// target's from then on) so that an edit's anchor exists: an `__all__`, a
/// `setup.py` function that collects the extensions.
struct BootstrapStep {
  std::vector<std::string> Anchors; ///< Where it goes; the first found wins.
  std::string Template;             ///< Relative to the profile's folder.
};

/// A marked block the migration owns inside a file the target owns (a
/// package `__init__.py`, `setup.py`, a docs table). How the block finds its
/// place (`Anchors`) is described in docs/profiles.md.
struct TargetEditSpec {
  std::string Id;       ///< Unique within the profile, e.g. `init-reexport`.
  std::string Path;     ///< Target-relative, a template.
  std::string Template; ///< Template file of the block's content.
  /// Where a new block goes, as the convention allows it to be: the first
  /// one found wins.
  std::vector<std::string> Anchors;
  bool CreateIfMissing = false; ///< Otherwise a missing file is an input error.
  /// What `--bootstrap` adds, in order, when none of the anchors is found.
  std::vector<BootstrapStep> Bootstrap;
};

/// A file the target must have to follow the convention.
struct RequiredFile {
  std::string Path;      ///< Target-relative.
  std::string Bootstrap; ///< Template `--bootstrap` creates it from; may be empty.
};

struct Profile {
  std::string Name;
  /// The spec convention the profile follows (`cache-dit`, `veomni`,
  /// `generic`): recorded in the manifest, it decides which validation
  /// layers `opmig review` requires, whatever the profile is named.
  std::string Spec;
  std::string Description;
  std::string Folder;      ///< Absolute folder of profile.json; templates are relative to it.
  std::string NativeDir;   ///< Template, e.g. `csrc/kernels/{{domain}}`.
  std::string Namespace;   ///< Template, e.g. `cache_dit::{{domain}}`.
  std::string OpNamespace; ///< Template, e.g. `cache_dit_cuda_ops`.
  std::string Extension;   ///< Template, e.g. `cache_dit._C_{{domain}}`; may be empty.
  IncludeStyle Includes = IncludeStyle::RelativeToRoot;
  std::string IncludeRoot; ///< Template, e.g. `csrc/kernels`.
  /// Template of where the target keeps third-party code (submodules the
  /// closure includes), e.g. `csrc/third_party`.
  std::string ThirdPartyDir = "{{native_dir}}/third_party";
  bool WrapGlobalNamespace = true;
  /// Template of the first line of every migrated file, with `upstream`
  /// and `file` in the context.
  std::string ProvenanceComment;
  /// Target-relative paths that must exist for the target to follow this
  /// convention (checked before anything is planned).
  std::vector<RequiredFile> RequiredTargetFiles;
  std::vector<GeneratedFileSpec> Files;
  std::vector<TargetEditSpec> Edits;
};

/// Loads `NameOrPath`: a built-in profile name (a folder of `BuiltinDir`) or
/// a path to a profile.json. Fails with an InputError that names the file,
/// the line and the problem for malformed or incomplete profiles, and lists
/// the built-in names for an unknown one.
llvm::Expected<Profile> loadProfile(const std::string &NameOrPath, const std::string &BuiltinDir);

} // namespace opmig::migrate

#endif
