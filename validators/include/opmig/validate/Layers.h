//===- Layers.h - The seven validation layers ------------------*- C++ -*-===//
//
// Every layer is listed here, in the order they run (each one builds on the
// ones before it), and whether it needs a GPU:
//
//   build -> import -> api -> fake -> smoke -> parity -> boundary
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

struct LayerInfo {
  const char *Name;
  const char *Summary; ///< What it proves, one line.
  bool NeedsGpu;
};

/// The seven layers, in run order.
llvm::ArrayRef<LayerInfo> allLayers();

/// The layer called `Name`, or null.
const LayerInfo *findLayer(llvm::StringRef Name);

/// `build,import` as layer names, checked and put in run order without
/// repeats. InputError for an unknown name (listing the known ones).
llvm::Expected<std::vector<std::string>> parseLayerList(llvm::StringRef List);

} // namespace opmig::validate

#endif
