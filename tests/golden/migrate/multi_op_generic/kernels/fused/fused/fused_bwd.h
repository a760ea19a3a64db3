// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/fused/fused_bwd.h
// Plants: the backward launcher's header: included by the binding TU, so kept, though its .cu stays behind.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace opmig::kernels::fused::fused {

// Gradients of out = a * sigmoid(b) with respect to a and b.
void launch_fused_bwd(const float *grad, const float *a, const float *b, float *grad_a,
                      float *grad_b, int64_t n, cudaStream_t stream);

} // namespace opmig::kernels::fused::fused
