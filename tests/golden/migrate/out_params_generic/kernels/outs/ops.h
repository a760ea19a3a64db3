// Migrated by opmig from example.org/out_params_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.h
// Plants: host wrappers whose outputs are not non-const tensor references.
#pragma once

#include <ATen/ATen.h>

#include <optional>

namespace opmig::kernels::outs {
void scale_into(at::Tensor out, const at::Tensor &x, double scale);
void row_sum(const at::Tensor &x, const at::Tensor &out, std::optional<at::Tensor> mean);
at::Tensor accumulate(at::Tensor acc, const at::Tensor &x);
// causal-conv1d's and flash-attn's shape: an optional output by non-const reference.
void row_max(const at::Tensor &x, c10::optional<at::Tensor> &max_out_);
// fast-hadamard-transform's shape: a non-const reference the body only rebinds.
at::Tensor scale_rows(at::Tensor &x, double scale);
} // namespace opmig::kernels::outs
