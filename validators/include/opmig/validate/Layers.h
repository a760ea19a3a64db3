//===- Layers.h - The validation layers ------------------------*- C++ -*-===//
//
// Every layer is listed here, in the order they run (each one builds on the
// ones before it), and whether it needs a GPU:
//
//   build -> import -> api -> fake -> smoke -> parity -> boundary -> diff -> perf
//
// diff and perf compare with the upstream build (`--source`): without it
// they are not run unless asked for by name.
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

/// The layers, in run order.
llvm::ArrayRef<LayerInfo> allLayers();

/// The layer called `Name`, or null.
const LayerInfo *findLayer(llvm::StringRef Name);

/// Whether `Name` compares with the upstream build (diff, perf), and so
/// runs by default only when `--source` is given.
bool needsUpstreamSource(llvm::StringRef Name);

/// `build,import` as layer names, checked and put in run order without
/// repeats. InputError for an unknown name (listing the known ones).
llvm::Expected<std::vector<std::string>> parseLayerList(llvm::StringRef List);

} // namespace opmig::validate

#endif
