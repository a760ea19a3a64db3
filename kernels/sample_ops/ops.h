// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/ops.h
// Host entry points of the sample library, registered in torch_bindings.cpp.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <tuple>

namespace opmig::kernels::sample_ops {
// Merges two partial attention results computed over disjoint key sets.
// v_a, v_b: [tokens, heads, head_size]; lse_a, lse_b: [tokens, heads] float32 (natural log).
// Returns (out [tokens, heads, head_size], out_lse [tokens, heads] float32).
std::tuple<at::Tensor, at::Tensor> merge_attn_states(const at::Tensor &v_a, const at::Tensor &lse_a,
                                                     const at::Tensor &v_b,
                                                     const at::Tensor &lse_b);

// out = x / sqrt(mean(x^2, -1) + eps) * weight, computed in float32.
at::Tensor rms_norm(const at::Tensor &x, const at::Tensor &weight, double eps);
} // namespace opmig::kernels::sample_ops
