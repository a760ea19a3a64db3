// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/kernels/gemm/gemm.cu
// Plants: the gemm launcher, and a sibling (zero_fill) that launches a kernel of fill.cuh.
#include "hb/gemm/gemm.h"

namespace opmig::kernels::hb::kernels {

__global__ void gemm_kernel(float *out, const float *a, const float *b, int64_t n) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * b[i];
}

void gemm(View out, View a, View b) {
  gemm_kernel<<<(out.numel + 255) / 256, 256>>>(static_cast<float *>(out.data),
                                                static_cast<const float *>(a.data),
                                                static_cast<const float *>(b.data), out.numel);
}

} // namespace opmig::kernels::hb::kernels
