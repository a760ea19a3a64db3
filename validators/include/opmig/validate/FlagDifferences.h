//===- FlagDifferences.h - What makes two builds of one kernel differ -*- C++ -*-===//
//
// The diff and perf layers build the upstream closure beside the migrated
// one. When their outputs or times differ, the likely cause is often not the
// code but how it was built: a flag that changes the generated device code,
// or a `__launch_bounds__` that the migrated source lost. This compares the
// two nvcc command lines feature by feature:
//
//   fast math   --use_fast_math, --ftz, --prec-div, --prec-sqrt, --fmad
//   -O          the host optimisation level and ptxas' (-Xptxas -O<n>)
//   debug       -G, -lineinfo
//   NDEBUG      -DNDEBUG / -UNDEBUG (asserts in device code)
//   registers   --maxrregcount
//   archs       the -gencode / -arch targets
//
// and the launch bounds of each upstream file with its migrated copy's.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_FLAGDIFFERENCES_H
#define OPMIG_VALIDATE_FLAGDIFFERENCES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace opmig::validate {

/// One feature that differs between the two builds.
struct FlagDifference {
  std::string Feature;  ///< `fast math`, `-O`, `archs`, `NDEBUG`, `launch bounds`, ...
  std::string Upstream; ///< The upstream build's value (`on`, `3`, `sm_90a`, `none`).
  std::string Migrated; ///< The migrated build's.
  std::string Where;    ///< For launch bounds: the files; empty for flags.

  /// `--use_fast_math: on upstream, off migrated`.
  std::string describe() const;
};

/// The features of two nvcc command lines (flags only, no sources) that
/// change the device code, where they differ; empty when none does. Flags
/// that only locate things (-I, -o) or that both builds get alike are
/// ignored.
std::vector<FlagDifference> compareNvccFlags(const std::vector<std::string> &Upstream,
                                             const std::vector<std::string> &Migrated);

/// The arguments of every `__launch_bounds__(...)` in `Source`, whitespace
/// and namespace qualifiers removed (`256,4`), in order; comments are
/// skipped.
std::vector<std::string> launchBoundsOf(llvm::StringRef Source);

/// A launch-bounds difference between an upstream file and its migrated
/// copy, or nothing when they agree.
std::vector<FlagDifference> compareLaunchBounds(llvm::StringRef UpstreamPath,
                                                llvm::StringRef UpstreamText,
                                                llvm::StringRef MigratedPath,
                                                llvm::StringRef MigratedText);

} // namespace opmig::validate

#endif
