// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/rows/rows_op.cu
// Plants: the host wrapper (entry of `scale_rows`).
#include <c10/cuda/CUDAStream.h>

#include "tl/common/dispatch.h"
#include "tl/ops.h"
#include "tl/rows/rows.cuh"

namespace opmig::kernels::tl {
at::Tensor scale_rows_op(const at::Tensor &x) {
  TORCH_CHECK(x.dim() == 2, "scale_rows: x must be 2-D");
  at::Tensor out = at::empty_like(x);
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const int rows = static_cast<int>(x.size(0)), cols = static_cast<int>(x.size(1));
  TL_DISPATCH_FLOAT(x.scalar_type(), "scale_rows", [&] {
    opmig::kernels::tl::RowScaler<scalar_t, 128>::launch(static_cast<const scalar_t *>(x.data_ptr()),
                                         static_cast<scalar_t *>(out.data_ptr()), rows, cols,
                                         stream);
  });
  return out;
}
} // namespace opmig::kernels::tl
