// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/attention/merge_attn_states.h
// Launcher of the attention-state merge, instantiated per dtype in merge_attn_states_{fp16,bf16,fp32}.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace opmig::kernels::sample_ops {

// rows = tokens * heads; v_* and out are [rows, head_size]; lse_* and out_lse are [rows].
template <typename T>
void launch_merge_attn_states(const T *v_a, const float *lse_a, const T *v_b, const float *lse_b,
                              T *out, float *out_lse, int64_t rows, int head_size,
                              cudaStream_t stream);

} // namespace opmig::kernels::sample_ops
