// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/fused_binding.cpp
// Plants: two host wrappers defined in the binding TU (fused_fwd, fused_bwd), each calling its own launcher; FRAGMENT registration.
#include <c10/cuda/CUDAStream.h>
#include <torch/all.h>

#include <tuple>

#include "fused/fused/fused_fwd.h"

namespace opmig::kernels::fused {
at::Tensor fused_fwd(const at::Tensor &a, const at::Tensor &b) {
  TORCH_CHECK(a.numel() == b.numel(), "fused_fwd: a and b must have the same size");
  at::Tensor out = at::empty_like(a);
  opmig::kernels::fused::fused::launch_fused_fwd(a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(),
                                   a.numel(), c10::cuda::getCurrentCUDAStream());
  return out;
}
} // namespace opmig::kernels::fused
