// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/rows/rows.cuh
// Plants: a class template with two members; only `launch` is used, and each is instantiated alone.
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::tl {

template <typename T, int Block> struct RowScaler {
  static void launch(const T *x, T *out, int rows, int cols, cudaStream_t stream);
  static void unused(T *out, int n);
};

} // namespace opmig::kernels::tl
