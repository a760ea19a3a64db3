// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/axpy/axpy_op.cu
// Plants: the host wrapper (entry of `axpy`); it sees only the launcher's declaration.
#include <c10/cuda/CUDAStream.h>

#include "tl/axpy/launch.cuh"
#include "tl/common/dispatch.h"
#include "tl/ops.h"

namespace opmig::kernels::tl {
void axpy_op(const at::Tensor &x, at::Tensor &y) {
  TORCH_CHECK(x.is_cuda(), "axpy: x must be a CUDA tensor");
  const int n = static_cast<int>(x.numel());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  TL_DISPATCH_FLOAT(x.scalar_type(), "axpy", [&] {
    opmig::kernels::tl::AxpyLauncher<scalar_t>::run(static_cast<const scalar_t *>(x.data_ptr()),
                                    static_cast<scalar_t *>(y.data_ptr()), n, stream);
  });
}
} // namespace opmig::kernels::tl
