// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/gelu.cuh
// Plants: the entry's kernel; needs common/math.cuh.
#pragma once

#include <cstdint>

#include "sh/common/math.cuh"

namespace opmig::kernels::sh::act {

__global__ void gelu_kernel(const float *x, float *out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] / (1.f + fast_exp(-1.702f * x[i]));
}

} // namespace opmig::kernels::sh::act
