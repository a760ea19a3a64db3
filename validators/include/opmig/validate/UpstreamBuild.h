//===- UpstreamBuild.h - The upstream closure, built unchanged --*- C++ -*-===//
//
// `opmig validate --source DIR` compares the migrated ops with the upstream
// code they came from (the diff and perf layers). The upstream closure is
// what the manifest says the migration copied: every migrated file's
// upstream path under DIR, checked against the sha256 the manifest records
// (a tree at another commit is no reference). It is built unchanged into a
// library of its own, beside the migrated one, with
//
//   include dirs  where the closure's own `#include`s resolve: the including
//                 file's folder, else the folder under DIR that holds the
//                 spelled path (a closure file first, then any file of DIR);
//   flags         the upstream's as far as they are written down: the
//                 manifest's standard, defines and carried nvcc flags, the
//                 code-generation flags (-O, fast math, NDEBUG, ...) that
//                 DIR's setup.py and CMakeLists.txt spell out, and
//                 `--upstream-flags`; the run's archs; torch's own flags, as
//                 the migrated build gets them;
//   left out      a TU the manifest says migrate copied only in part (its
//                 `left_out`: sibling definitions, their registration
//                 blocks and includes) is compiled as a copy with those
//                 stretches blanked (LeftOutBlanking.h), its quote includes
//                 resolved from the original's folder (`-iquote`);
//   entries       each op's upstream function, registered under
//                 `<op namespace>_upstream` by a generated TU
//                 (UpstreamRegistration.h).
//
// No Clang: the GPU machine builds this too.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_UPSTREAMBUILD_H
#define OPMIG_VALIDATE_UPSTREAMBUILD_H

#include "opmig/support/Manifest.h"
#include "opmig/validate/CudaArchList.h"
#include "opmig/validate/UpstreamRegistration.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::validate {

struct UpstreamPlan {
  std::string SourceRoot;               ///< Absolute.
  std::vector<std::string> Files;       ///< The closure, SourceRoot-relative.
  std::vector<std::string> Sources;     ///< Its TUs, SourceRoot-relative.
  std::vector<std::string> IncludeDirs; ///< Absolute.
  /// What migrate left out of each closure TU (manifest `left_out`), by
  /// SourceRoot-relative path; only TUs with something left out, each
  /// checked against the file's text.
  std::map<std::string, std::vector<LeftOutRange>> LeftOut;
  /// The upstream's flags (no include dirs, no torch flags): every TU gets
  /// `CommonFlags`; `.cu` files also `NvccFlags` (the archs' -gencode among them).
  std::vector<std::string> CommonFlags, NvccFlags;
  /// Where the flags were read: `the manifest`, `setup.py`, `the upstream flags given`.
  std::vector<std::string> FlagsFrom;
  /// False when neither DIR's build files nor `--upstream-flags` give a
  /// code-generation flag: the upstream is then built with the migrated
  /// build's, and the builds' flags are not compared.
  bool CodegenFlagsKnown = false;
  std::vector<UpstreamEntry> Entries;
  std::string Namespace; ///< `<op namespace>_upstream`.
};

/// Whether `Flag` changes the generated code and is one codegenFlagsIn()
/// reads: `-O<n>`, fast math, `-DNDEBUG`, `-lineinfo`, `--maxrregcount=`,
/// `-Xptxas=`.
bool isCodegenFlag(llvm::StringRef Flag);

/// The code-generation flags a build file spells out (`-O3`,
/// `--use_fast_math`, `-DNDEBUG`, `--ftz=true`, `-lineinfo`,
/// `--maxrregcount=64`, `-Xptxas=-O2`), in order, once each; `#` comments
/// are skipped. Values computed at build time are not seen.
std::vector<std::string> codegenFlagsIn(llvm::StringRef BuildFileText);

/// The include dirs (absolute) the closure's own includes need: for each
/// `#include "x/y.h"` or `<x/y.h>` that does not resolve beside the
/// including file, the folder under `SourceRoot` that holds `x/y.h`, a
/// closure file first, then the first of DIR's files (sorted); headers found
/// so are followed too. Includes found nowhere (torch, CUDA) are left alone.
std::vector<std::string> upstreamIncludeDirs(const std::string &SourceRoot,
                                             const std::vector<std::string> &Files);

/// The plan, for the manifest's closure under `SourceRoot`; `MigratedFlags`
/// (the migrated build's nvcc flags) give the code-generation flags when
/// nothing says the upstream's. InputError when
/// DIR is no folder, a closure file is missing or differs from the upstream
/// the migration was made from (naming it), or an entry's declaration is in
/// no header of the closure, or a left-out range does not fit its file.
llvm::Expected<UpstreamPlan> planUpstreamBuild(const Manifest &M, const std::string &SourceRoot,
                                               const std::string &OpNamespace,
                                               const std::vector<CudaArch> &Archs,
                                               const std::vector<std::string> &ExtraFlags,
                                               const std::vector<std::string> &MigratedFlags);

/// One `name: value` line per input of the upstream build, to key its cache
/// folder (the registration TU's text and each file's sha256 among them).
std::string upstreamBuildKeyText(const UpstreamPlan &Plan, const std::string &Registration,
                                 const std::string &Toolchain);

} // namespace opmig::validate

#endif
