// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/common/reduce.cuh
// Warp and block sums (used by rms_norm).
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::sample_ops {

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  }
  return v;
}

// Sum over the whole block (blockDim.x a multiple of 32, at most 1024); every thread gets it.
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_totals[32];
  __shared__ float result;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int num_warps = blockDim.x >> 5;
  v = warp_sum(v);
  if (lane == 0) {
    warp_totals[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    float t = lane < num_warps ? warp_totals[lane] : 0.f;
    t = warp_sum(t);
    if (lane == 0) {
      result = t;
    }
  }
  __syncthreads();
  return result;
}

} // namespace opmig::kernels::sample_ops
