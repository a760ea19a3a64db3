// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/attention/merge_attn_states_kernel.cuh
// Kernel and launcher definition; included only by the per-dtype instantiation TUs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sample_ops/attention/merge_attn_states.h"
#include "sample_ops/common/type_convert.cuh"

namespace opmig::kernels::sample_ops {

// Each output element is the softmax-weighted mix of the two partial results:
//   m = max(lse_a, lse_b), w_a = exp(lse_a - m), w_b = exp(lse_b - m),
//   out = (v_a * w_a + v_b * w_b) / (w_a + w_b), out_lse = m + log(w_a + w_b).
// A row whose two lse are both -inf (no keys on either side) gets out = 0, out_lse = -inf.
template <typename T>
__global__ void merge_attn_states_kernel(const T *__restrict__ v_a, const float *__restrict__ lse_a,
                                         const T *__restrict__ v_b, const float *__restrict__ lse_b,
                                         T *__restrict__ out, float *__restrict__ out_lse,
                                         int64_t rows, int head_size) {
  const int64_t total = rows * head_size;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += stride) {
    const int64_t row = idx / head_size;
    const int d = static_cast<int>(idx - row * head_size);
    const float la = lse_a[row];
    const float lb = lse_b[row];
    const float m = fmaxf(la, lb);
    if (m == -INFINITY) {
      out[idx] = from_float<T>(0.f);
      if (d == 0) out_lse[row] = -INFINITY;
      continue;
    }
    const float wa = expf(la - m);
    const float wb = expf(lb - m);
    const float s = wa + wb;
    out[idx] = from_float<T>((to_float(v_a[idx]) * wa + to_float(v_b[idx]) * wb) / s);
    if (d == 0) out_lse[row] = m + logf(s);
  }
}

template <typename T>
void launch_merge_attn_states(const T *v_a, const float *lse_a, const T *v_b, const float *lse_b,
                              T *out, float *out_lse, int64_t rows, int head_size,
                              cudaStream_t stream) {
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 65536;
  const int64_t total = rows * head_size;
  if (total == 0) return;
  const int64_t blocks = std::min<int64_t>((total + kThreads - 1) / kThreads, kMaxBlocks);
  merge_attn_states_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      v_a, lse_a, v_b, lse_b, out, out_lse, rows, head_size);
}

} // namespace opmig::kernels::sample_ops

#define SAMPLE_INSTANTIATE_MERGE(T)                                            \
  template void opmig::kernels::sample_ops::launch_merge_attn_states<T>(                       \
      const T *, const float *, const T *, const float *, T *, float *,        \
      int64_t, int, cudaStream_t);
