// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/norm/rms.cuh
// Plants: the entry's kernel and launcher.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace opmig::kernels::sh::norm {

template <int Block>
__global__ void rms_kernel(const float *x, float *out, int64_t cols) {
  const float *row = x + blockIdx.x * cols;
  float sum = 0.f;
  for (int64_t c = 0; c < cols; ++c)
    sum += row[c] * row[c];
  const float inv = rsqrtf(sum / static_cast<float>(cols) + 1e-6f);
  for (int64_t c = threadIdx.x; c < cols; c += Block)
    out[blockIdx.x * cols + c] = row[c] * inv;
}

template <int Block>
void launch_rms(const float *x, float *out, int64_t rows, int64_t cols, cudaStream_t stream) {
  rms_kernel<Block><<<static_cast<unsigned>(rows), Block, 0, stream>>>(x, out, cols);
}

} // namespace opmig::kernels::sh::norm
