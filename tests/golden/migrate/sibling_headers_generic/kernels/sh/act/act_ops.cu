// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/act_ops.cu
// Plants: the gelu entry and its sibling silu, with their launchers, in one TU.
#include <c10/cuda/CUDAStream.h>

#include "sh/act/act_api.h"
#include "sh/act/gelu.cuh"
#include "sh/common/check.h"
#include "sh/ops.h"

namespace opmig::kernels::sh::act {

void launch_gelu(const float *x, float *out, int64_t n, cudaStream_t stream) {
  gelu_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(x, out, n);
}

} // namespace opmig::kernels::sh::act

namespace opmig::kernels::sh {
at::Tensor gelu_op(const at::Tensor &x) {
  SH_CHECK_FLOAT(x);
  at::Tensor out = at::empty_like(x);
  opmig::kernels::sh::act::launch_gelu(x.data_ptr<float>(), out.data_ptr<float>(), x.numel(),
                       c10::cuda::getCurrentCUDAStream());
  return out;
}
} // namespace opmig::kernels::sh
