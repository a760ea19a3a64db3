// Migrated by opmig from example.org/schema_marks_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.h
// Plants: host wrappers whose written tensors no C++ type marks.
#pragma once

#include <ATen/ATen.h>

#include <optional>

namespace opmig::kernels::marks {
void fill_rows(at::Tensor out, double value);
void masked_copy(const at::Tensor &src, const at::Tensor &dest, std::optional<at::Tensor> hits);
at::Tensor row_max(const at::Tensor &x);
} // namespace opmig::kernels::marks
