//===- MigrateSupport.h - Running `opmig migrate` on fixtures ---*- C++ -*-===//

#ifndef OPMIG_TESTS_MIGRATESUPPORT_H
#define OPMIG_TESTS_MIGRATESUPPORT_H

#include "ToolRunner.h"

#include <ostream>
#include <string>
#include <vector>

namespace opmig::test {

/// One migration of a fixture upstream into a fixture target.
struct MigrationCase {
  std::string Name;     ///< Golden folder name under tests/golden/migrate.
  std::string Upstream; ///< Fixture path relative to the repository root.
  std::vector<std::string> Entries;
  std::string Target; ///< Fixture target relative to the repository root.
  std::string Profile;
  std::string Domain;
  std::vector<std::string> Options = {}; ///< Further migrate options, e.g. `--bootstrap`.
};

/// Copies of a case's upstream and target in temporary folders. The
/// upstream copy is outside git, so the provenance comes from the fixed
/// `--upstream-repo`/`--upstream-commit` and goldens do not depend on the
/// checkout.
struct MigrationSandbox {
  std::string Source, Target;
  explicit MigrationSandbox(const MigrationCase &C);
};

/// `migrate` arguments for `C` from `Box`, then `Extra`, then (unless
/// `Stubs` is false: the installed torch) the stand-in headers. The nvcc
/// compile check is off unless `CompileCheck`: most tests are about the
/// files, and the golden and real-torch tests run it.
std::vector<std::string> migrateArgs(const MigrationCase &C, const MigrationSandbox &Box,
                                     const std::vector<std::string> &Extra = {}, bool Stubs = true,
                                     bool CompileCheck = false);

/// The sample merge_attn_states into the cache-dit-like target, domain attn.
MigrationCase sampleIntoCacheDit();

/// gtest (and so ctest) names a case by what this prints: its name, the same
/// in every build, where the default would print the struct's bytes.
void PrintTo(const MigrationCase &C, std::ostream *Out);

} // namespace opmig::test

#endif
