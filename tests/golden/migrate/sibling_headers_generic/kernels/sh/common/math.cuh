// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/common/math.cuh
// Plants: a device helper that act/gelu.cuh needs and act/silu.cuh includes too.
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::sh {

__device__ inline float fast_exp(float x) { return __expf(x); }

} // namespace opmig::kernels::sh
