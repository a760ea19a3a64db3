//===- CompileCheck.h - Does a migration compile where upstream did? -*- C++ -*-===//
//
// Compiles every C++/CUDA TU a migration writes (ported TUs and generated
// glue) with nvcc, as the target will build them: a scratch copy of the
// planned files, includes through the profile's include root (then the
// target's own, for headers the migration does not write), the upstream
// flags, third-party submodules where the glue puts them. A ported TU that
// fails is compiled again upstream, with the same compiler, so that an error
// the upstream already had is told apart from one the migration added.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_COMPILECHECK_H
#define OPMIG_MIGRATE_COMPILECHECK_H

#include "opmig/migrate/Migrator.h"
#include "opmig/support/NvccCheck.h"

#include <string>
#include <vector>

namespace opmig::migrate {

struct CompileCheckOptions {
  std::string TargetRoot; ///< The real target, for headers the migration leaves alone.
  unsigned Jobs = 0;      ///< Parallel compiles; 0 means one per core.
};

struct TUCompile {
  std::string Path;         ///< Target-relative.
  std::string UpstreamPath; ///< Empty for generated glue.
  bool Compiles = false;
  std::vector<opmig::CompilerError> Errors; ///< File paths target-relative where they can be.
  /// For a ported TU that fails: whether upstream compiles it (if it does
  /// not, the errors are not the migration's). For failing glue: false when
  /// its first error is that of a ported TU that fails upstream too.
  bool UpstreamCompiles = true;
  std::string UpstreamFirstError;

  /// An error the migration brought: the TU fails and upstream's did not.
  bool addsErrors() const { return !Compiles && UpstreamCompiles; }
};

struct CompileCheckReport {
  bool Ran = false;
  std::string NotRunBecause; ///< When !Ran: no nvcc, no TU, a scratch that cannot be made.
  std::string Nvcc;
  std::string GpuArch;
  std::vector<TUCompile> TUs; ///< By path.

  bool addsErrors() const;
};

/// Runs the check on `Result`'s planned changes; never fails (what does not
/// run says why in the report).
CompileCheckReport checkMigrationCompiles(const MigrationResult &Result,
                                          const CompileCheckOptions &Options);

} // namespace opmig::migrate

#endif
