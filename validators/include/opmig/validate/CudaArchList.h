//===- CudaArchList.h - The GPU archs a validation builds for ---*- C++ -*-===//
//
// The spellings torch and the profiles accept in TORCH_CUDA_ARCH_LIST and
// CACHE_DIT_CUDA_ARCH_LIST: `9.0a`, `90a`, `sm_90a`, `8.9+PTX`, separated by
// `;`, `,` or blanks. `9.0a;8.9` builds SASS for sm_90a and sm_89.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_VALIDATE_CUDAARCHLIST_H
#define OPMIG_VALIDATE_CUDAARCHLIST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace opmig::validate {

struct CudaArch {
  std::string Number; ///< `90a`, `89`, `100f`.
  bool Ptx = false;   ///< Also embed PTX (`+PTX`).

  /// `9.0a`, `8.9+PTX`: TORCH_CUDA_ARCH_LIST's spelling.
  std::string torchSpelling() const;
  /// nvcc's `-gencode=arch=compute_90a,code=sm_90a` (and `code=compute_90a`
  /// for PTX).
  std::vector<std::string> gencodeFlags() const;
  bool operator==(const CudaArch &) const = default;
};

/// Parses `List`; `Origin` names it in the InputError for an entry that is
/// no CUDA arch or an empty list.
llvm::Expected<std::vector<CudaArch>> parseCudaArchList(llvm::StringRef List,
                                                        llvm::StringRef Origin);

/// `9.0a;8.9+PTX`.
std::string torchArchList(const std::vector<CudaArch> &Archs);

} // namespace opmig::validate

#endif
