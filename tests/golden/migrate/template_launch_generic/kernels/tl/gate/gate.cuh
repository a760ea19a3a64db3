// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/gate/gate.cuh
// Plants: bodies visible in the header, but `extern template` says the users must not instantiate
// them: the per-dtype TUs provide them.
#pragma once

#include <ATen/core/Tensor.h>
#include <cuda_runtime.h>

#include "tl/gate/vec.h"

namespace opmig::kernels::tl {

template <typename T> __global__ void gate_kernel(const T *x, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i];
}

template <typename T> struct Gate {
  static void apply(const T *x, T *out, int n, cudaStream_t stream) {
    int threads = 64 * VecWidth<T>::value;
    gate_kernel<T><<<(n + threads - 1) / threads, threads, 0, stream>>>(x, out, n);
  }
};

extern template struct Gate<float>;
extern template struct Gate<c10::Half>;

} // namespace opmig::kernels::tl
