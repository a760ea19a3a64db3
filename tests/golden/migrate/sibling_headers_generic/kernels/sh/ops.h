// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.h
// Plants: the host wrappers of the four ops, declared once for the binding TU.
#pragma once

#include <ATen/ATen.h>

namespace opmig::kernels::sh {
at::Tensor rms_norm_op(const at::Tensor &x);
at::Tensor layer_norm_op(const at::Tensor &x);
at::Tensor gelu_op(const at::Tensor &x);
at::Tensor silu_op(const at::Tensor &x);
} // namespace opmig::kernels::sh
