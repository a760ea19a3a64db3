//===- NvccOptions.h - What each nvcc option means ---------------*- C++ -*-===//
//
// One table of nvcc's options, read by the flag normalizer (which maps them
// to Clang's) and by the manifest reader (which only lets the flags a
// migrated build carries into the build record a review later runs nvcc
// with).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_NVCCOPTIONS_H
#define OPMIG_SUPPORT_NVCCOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace opmig {

enum class NvccAction {
  Drop,         ///< nvcc-only, and Clang has no equivalent.
  NvccLanguage, ///< nvcc-only and changes what nvcc accepts: kept for nvcc checks.
  NvccCodegen,  ///< nvcc-only and changes the device code (`--ftz=`): kept for builds.
  Arch,
  Code,
  GenCode,
  Rdc,
  DeviceC, ///< `-dc` compiles for separate linking: relocatable device code.
  FastMath,
  HostArgs,
  OptionsFile,
  Language,
  Std,
  Define,
  Undefine,
  Include,
  SystemInclude,
  QuoteInclude,
  PreInclude,
  Optimize,
};

struct NvccOption {
  llvm::StringRef Name; ///< Without dashes: nvcc takes one or two for any option.
  bool TakesValue;
  NvccAction Action;
};

/// The option `Name` (without its dashes) names; null for one nvcc lacks.
const NvccOption *findNvccOption(llvm::StringRef Name);

/// `--Name` or `--Name=Value` when option `Name` (without its dashes) is one
/// a build of migrated code repeats as the upstream gave it: the language
/// flags (`--expt-relaxed-constexpr`), fast math and the math and register
/// flags that change the device code (`--ftz=true`, `--maxrregcount=64`).
/// Nothing for any other option or a malformed value. Optimisation levels,
/// debug info, ptxas options and archs are the target build's own choice.
std::optional<std::string> carriedNvccFlag(llvm::StringRef Name, llvm::StringRef Value);

/// Whether `Flag` is spelled as carriedNvccFlag() spells a carried flag:
/// the only flags TUFlags::NvccFlags and a manifest's build record hold.
bool isCarriedNvccFlag(llvm::StringRef Flag);

/// `sm_90`, `sm_90a`, `sm_100f`: what Clang's --cuda-gpu-arch accepts for
/// NVIDIA GPUs. Anything else would only make every device parse fail.
bool isCudaArch(llvm::StringRef Arch);

} // namespace opmig

#endif
