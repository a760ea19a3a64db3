// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/kernels/quant/quant.cu
#include "hb/quant/quant.h"

#include <cstdint>

namespace opmig::kernels::hb::kernels {

__global__ void quantize_kernel(int8_t *out, const float *x, int64_t n, float scale) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int8_t>(x[i] / scale);
}

void quantize(View out, View x, float scale) {
  quantize_kernel<<<(out.numel + 255) / 256, 256>>>(static_cast<int8_t *>(out.data),
                                                    static_cast<const float *>(x.data), x.numel,
                                                    scale);
}

} // namespace opmig::kernels::hb::kernels
