// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/gate/gate_op.cu
// Plants: the host wrapper (entry of `gate`); it may not instantiate Gate<T> itself.
#include <c10/cuda/CUDAStream.h>

#include "tl/common/dispatch.h"
#include "tl/gate/gate.cuh"
#include "tl/ops.h"

namespace opmig::kernels::tl {
at::Tensor gate_op(const at::Tensor &x) {
  at::Tensor out = at::empty_like(x);
  const int n = static_cast<int>(x.numel());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  TL_DISPATCH_FLOAT(x.scalar_type(), "gate", [&] {
    opmig::kernels::tl::Gate<scalar_t>::apply(static_cast<const scalar_t *>(x.data_ptr()),
                              static_cast<scalar_t *>(out.data_ptr()), n, stream);
  });
  return out;
}
} // namespace opmig::kernels::tl
