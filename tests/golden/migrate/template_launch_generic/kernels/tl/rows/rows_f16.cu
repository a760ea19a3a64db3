// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/rows/rows_f16.cu
// Plants: a single-member instantiation made by a macro, for a type spelled through an alias.
#include <ATen/core/Tensor.h>

#include "tl/rows/rows_impl.cuh"

using half_t = c10::Half;
TL_INSTANTIATE_ROWS(half_t)
