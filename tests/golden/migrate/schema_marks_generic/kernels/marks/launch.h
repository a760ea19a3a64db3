// Migrated by opmig from example.org/schema_marks_generic at 0123456789abcdef0123456789abcdef01234567: csrc/launch.h
// Plants: launchers defined in another TU than their callers, so that a
// caller's body never shows the write.
#pragma once

#include <ATen/ATen.h>

namespace opmig::kernels::marks {
void launch_fill(const at::Tensor &out, float value);
void launch_masked_copy(const at::Tensor &src, const at::Tensor &dest, const at::Tensor *hits);
void launch_row_max(const at::Tensor &x, const at::Tensor &out);
} // namespace opmig::kernels::marks
