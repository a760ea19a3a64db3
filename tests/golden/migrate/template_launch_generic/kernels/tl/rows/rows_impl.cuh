// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/rows/rows_impl.cuh
// Plants: out-of-line member definitions, and a macro that instantiates one member.
#pragma once

#include "tl/rows/rows.cuh"

namespace opmig::kernels::tl {

template <typename T> __global__ void row_copy_kernel(const T *x, T *out, int cols) {
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[blockIdx.x * cols + c] = x[blockIdx.x * cols + c];
}

template <typename T, int Block>
void RowScaler<T, Block>::launch(const T *x, T *out, int rows, int cols, cudaStream_t stream) {
  row_copy_kernel<T><<<rows, Block, 0, stream>>>(x, out, cols);
}

template <typename T, int Block> void RowScaler<T, Block>::unused(T *out, int n) {
  (void)out;
  (void)n;
}

} // namespace opmig::kernels::tl

#define TL_INSTANTIATE_ROWS(T)                                                                     \
  template void opmig::kernels::tl::RowScaler<T, 128>::launch(const T *, T *, int, int, cudaStream_t);
