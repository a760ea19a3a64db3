// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.h
// Plants: the host wrappers of the five ops, declared once for the binding TU.
#pragma once

#include <ATen/core/Tensor.h>

namespace opmig::kernels::tl {
void axpy_op(const at::Tensor &x, at::Tensor &y);
at::Tensor scale_rows_op(const at::Tensor &x);
at::Tensor gate_op(const at::Tensor &x);
at::Tensor bias_act_op(const at::Tensor &x, bool relu);
at::Tensor pack_op(const at::Tensor &x);
} // namespace opmig::kernels::tl
