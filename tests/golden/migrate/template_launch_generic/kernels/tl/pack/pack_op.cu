// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/pack_op.cu
// Plants: the host wrapper (entry of `pack`): an `if constexpr` ladder on the dispatched dtype
// picks the partial specialization, and only float reaches the tiler.
#include <c10/cuda/CUDAStream.h>

#include <type_traits>

#include "tl/common/dispatch.h"
#include "tl/ops.h"
#include "tl/pack/pack.cuh"

namespace opmig::kernels::tl {
at::Tensor pack_op(const at::Tensor &x) {
  at::Tensor out = at::empty_like(x);
  const int n = static_cast<int>(x.numel());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  TL_DISPATCH_FLOAT(x.scalar_type(), "pack", [&] {
    const auto *in = static_cast<const scalar_t *>(x.data_ptr());
    auto *o = static_cast<scalar_t *>(out.data_ptr());
    if constexpr (std::is_same_v<scalar_t, float>) {
      opmig::kernels::tl::Packer<scalar_t, true>::run(in, o, n, stream);
      opmig::kernels::tl::Tiler<scalar_t>::launch<256>(in, o, n, stream);
      opmig::kernels::tl::Tiler<scalar_t>::Edge<256>::fix(o, n, stream);
    } else {
      opmig::kernels::tl::Packer<scalar_t, false>::run(in, o, n, stream);
    }
    TORCH_CHECK(opmig::kernels::tl::Tiler<scalar_t>::tiles(n) >= 0, "pack: negative tile count");
  });
  return out;
}
} // namespace opmig::kernels::tl
