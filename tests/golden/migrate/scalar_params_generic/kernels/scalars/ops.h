// Migrated by opmig from example.org/scalar_params_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.h
// Plants: the host wrappers, with the scalar types upstream code declares.
#pragma once

#include <ATen/ATen.h>

#include <optional>

namespace opmig::kernels::scalars {
at::Tensor scale_shift(const at::Tensor &x, float scale, int shift);
void fill_value(at::Tensor &out, float value, std::optional<long long> count);
at::Tensor add_bias(const at::Tensor &x, double bias);
} // namespace opmig::kernels::scalars
