//===- FileLayout.h - Where closure files land in the native folder -*- C++ -*-===//
//
// Closure files keep their layout below the deepest folder they all share.
// `--flatten PREFIX` (a folder of the upstream tree) places the files under
// PREFIX as if PREFIX were that folder; the longest matching prefix wins,
// and files under none keep their place below the shared folder:
//
//   closure file               as is                     --flatten src/kernels
//                                                         --flatten nunchaku/csrc
//   src/kernels/zgemm/x.cuh -> src/kernels/zgemm/x.cuh   zgemm/x.cuh
//   nunchaku/csrc/ops.h     -> nunchaku/csrc/ops.h       ops.h
//   src/interop/torch.h     -> src/interop/torch.h       src/interop/torch.h
//
// Paths are `/`-separated and relative: upstream ones to `--source`, the
// results to the domain's native folder.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_MIGRATE_FILELAYOUT_H
#define OPMIG_MIGRATE_FILELAYOUT_H

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace opmig::migrate {

/// The deepest folder that every file in `Paths` is under; empty when they
/// share none (or `Paths` is empty).
std::string commonFolder(const std::vector<std::string> &Paths);

/// A `--flatten` value as a folder relative to the upstream root, without
/// `./` or a trailing `/` (`./src/kernels/` -> `src/kernels`). An absolute
/// path, an empty one, a `..` or `.` component and a backslash are
/// InputErrors naming the value.
llvm::Expected<std::string> parseFlattenPrefix(const std::string &Spec);

/// Where each of `Files` (upstream paths) lands below the native folder,
/// with `Flatten` (parsed prefixes) applied. InputErrors: a prefix that no
/// file of `Files` is under (naming it, and the folders that are), and two
/// files landing on one path (naming both and the path).
llvm::Expected<std::map<std::string, std::string>>
layoutFiles(const std::vector<std::string> &Files, const std::vector<std::string> &Flatten);

} // namespace opmig::migrate

#endif
