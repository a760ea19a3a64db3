//===- BuildKey.h - When a domain's build can be reused ---------*- C++ -*-===//
//
// A build is kept in the user's cache under a key of everything it was made
// from, so that validating an unchanged domain again rebuilds nothing:
//
//   the plan (profile, domain, the extension's sources and flags, the archs),
//   the sha256 of each keyed file (BuildPlan::KeyedFiles) as it is on disk
//   now (a hand edit since the migration rebuilds, whatever the manifest
//   recorded; a Python file is not built, so editing one does not), the torch (version
//   and folder), the compilers (path, size and modification time) and the
//   Python headers.
//
// Headers outside the manifest (a submodule's) are not keyed.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_BUILDKEY_H
#define OPMIG_VALIDATE_BUILDKEY_H

#include "opmig/validate/BuildPlan.h"

#include <string>

namespace opmig::validate {

/// The toolchain a build uses, as it enters the key.
struct BuildToolchain {
  std::string TorchVersion, TorchDir;
  std::string Nvcc, HostCompiler;
  std::string PythonIncludeDir;
};

/// The key's text: one `name: value` line per input, for a human to diff
/// (each build folder keeps it in `key.txt`).
std::string buildKeyText(const BuildPlan &Plan, const std::string &Root,
                         const BuildToolchain &Toolchain);

/// 16 hex digits of the sha256 of buildKeyText().
std::string buildKey(const BuildPlan &Plan, const std::string &Root,
                     const BuildToolchain &Toolchain);

} // namespace opmig::validate

#endif
