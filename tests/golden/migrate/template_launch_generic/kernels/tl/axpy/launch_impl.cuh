// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/axpy/launch_impl.cuh
// Plants: the out-of-line member definitions and their kernel, included only by the per-dtype TUs.
#pragma once

#include "tl/axpy/launch.cuh"

namespace opmig::kernels::tl {

template <typename T> __global__ void axpy_kernel(const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}

template <typename T> int AxpyLauncher<T>::blocks(int n) { return (n + 255) / 256; }

template <typename T> void AxpyLauncher<T>::run(const T *x, T *y, int n, cudaStream_t stream) {
  axpy_kernel<T><<<blocks(n), 256, 0, stream>>>(x, y, n);
}

} // namespace opmig::kernels::tl
