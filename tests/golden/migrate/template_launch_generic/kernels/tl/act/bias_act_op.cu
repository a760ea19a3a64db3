// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/bias_act_op.cu
// Plants: the host wrapper (entry of `bias_act`): dispatchBool reaches both specializations.
#include <c10/cuda/CUDAStream.h>

#include "tl/act/bias_act.cuh"
#include "tl/common/dispatch.h"
#include "tl/ops.h"

namespace opmig::kernels::tl {
at::Tensor bias_act_op(const at::Tensor &x, bool relu) {
  TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, "bias_act: x must be float32");
  at::Tensor out = at::empty_like(x);
  const int n = static_cast<int>(x.numel());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  opmig::kernels::tl::dispatchBool(relu, [&]<bool kRelu>() {
    opmig::kernels::tl::BiasAct<kRelu>::run(static_cast<const float *>(x.data_ptr()),
                            static_cast<float *>(out.data_ptr()), n, stream);
  });
  return out;
}
} // namespace opmig::kernels::tl
