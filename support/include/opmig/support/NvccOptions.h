//===- NvccOptions.h - What each nvcc option means ---------------*- C++ -*-===//
//
// One table of nvcc's options, read by the flag normalizer (which maps them
// to Clang's) and by the manifest reader (which only lets nvcc language
// flags into the build record a review later runs nvcc with).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_NVCCOPTIONS_H
#define OPMIG_SUPPORT_NVCCOPTIONS_H

#include "llvm/ADT/StringRef.h"

namespace opmig {

enum class NvccAction {
  Drop,         ///< nvcc-only, and Clang has no equivalent.
  NvccLanguage, ///< nvcc-only and changes what nvcc accepts: kept for nvcc checks.
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

/// Whether `Flag` (`--expt-relaxed-constexpr`) is one of the nvcc-only
/// flags that change what nvcc accepts, the only ones TUFlags::NvccFlags
/// and a manifest's build record hold.
bool isNvccLanguageFlag(llvm::StringRef Flag);

/// `sm_90`, `sm_90a`, `sm_100f`: what Clang's --cuda-gpu-arch accepts for
/// NVIDIA GPUs. Anything else would only make every device parse fail.
bool isCudaArch(llvm::StringRef Arch);

} // namespace opmig

#endif
