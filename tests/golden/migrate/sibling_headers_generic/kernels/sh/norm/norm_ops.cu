// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/norm/norm_ops.cu
// Plants: the rms_norm entry and its sibling layer_norm in one TU, each with headers of its own.
#include <c10/cuda/CUDAStream.h>

#include "sh/common/check.h"
#include "sh/norm/rms.cuh"
#include "sh/norm/tile.h"
#include "sh/norm/welford.h"
#include "sh/ops.h"

namespace opmig::kernels::sh {
static_assert(SH_NORM_TILE % 32 == 0, "the block must be whole warps");

at::Tensor rms_norm_op(const at::Tensor &x) {
  SH_CHECK_FLOAT(x);
  at::Tensor out = at::empty_like(x);
  opmig::kernels::sh::norm::launch_rms<SH_NORM_TILE>(x.data_ptr<float>(), out.data_ptr<float>(), x.size(0),
                                     x.size(1), c10::cuda::getCurrentCUDAStream());
  return out;
}
} // namespace opmig::kernels::sh
