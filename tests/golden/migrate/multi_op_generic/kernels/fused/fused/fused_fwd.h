// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/fused/fused_fwd.h
// Plants: the forward launcher's own header (fused_binding.cpp includes it).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace opmig::kernels::fused::fused {

// out = a * sigmoid(b), elementwise.
void launch_fused_fwd(const float *a, const float *b, float *out, int64_t n, cudaStream_t stream);

} // namespace opmig::kernels::fused::fused
