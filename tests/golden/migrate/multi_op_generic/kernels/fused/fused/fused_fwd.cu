// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/fused/fused_fwd.cu
// Plants: the forward launcher and kernel, in their own TU.
#include "fused/common/exp.cuh"
#include "fused/fused/fused_fwd.h"

namespace opmig::kernels::fused::fused {

__global__ void fused_fwd_kernel(const float *a, const float *b, float *out, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] / (1.f + op_exp(-b[i]));
}

void launch_fused_fwd(const float *a, const float *b, float *out, int64_t n, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  fused_fwd_kernel<<<blocks, 256, 0, stream>>>(a, b, out, n);
}

} // namespace opmig::kernels::fused::fused
