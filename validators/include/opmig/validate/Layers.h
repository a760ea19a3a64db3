//===- Layers.h - The seven validation layers ------------------*- C++ -*-===//
//
// Every layer of issue 12 is listed here, in the order they run (each one
// builds on the ones before it), whether it is implemented in this release
// and whether it needs a GPU:
//
//   build -> import -> api -> fake -> smoke -> parity -> boundary
//
// A layer that is not implemented is reported as skipped with the reason
// NotImplementedReason; asking for it by name is an input error.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_LAYERS_H
#define OPMIG_VALIDATE_LAYERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::validate {

inline constexpr const char *NotImplementedReason = "not implemented in this release";

struct LayerInfo {
  const char *Name;
  const char *Summary; ///< What it proves, one line.
  bool NeedsGpu;
  bool Implemented;
};

/// The seven layers, in run order.
llvm::ArrayRef<LayerInfo> allLayers();

/// The layer called `Name`, or null.
const LayerInfo *findLayer(llvm::StringRef Name);

/// `build,import` as layer names, checked and put in run order without
/// repeats. InputError for an unknown name (listing the known ones) or one
/// that is not implemented in this release (listing the implemented ones).
llvm::Expected<std::vector<std::string>> parseLayerList(llvm::StringRef List);

} // namespace opmig::validate

#endif
