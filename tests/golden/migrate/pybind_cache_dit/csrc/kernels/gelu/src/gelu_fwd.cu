// Migrated by opmig from example.org/pybind_cache_dit at 0123456789abcdef0123456789abcdef01234567: src/gelu_fwd.cu
// Plants: the forward op (pybind name "gelu" -> gelu_forward) with its kernel.
#include <ATen/cuda/CUDAContext.h>

#include "gelu/include/gelu.h"
#include "gelu/include/gelu_common.cuh"

namespace cache_dit::gelu {

__global__ void gelu_fwd_kernel(const float *__restrict__ x, float *__restrict__ y, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = gelu_value(x[i]);
}

} // namespace cache_dit::gelu

namespace cache_dit::gelu {
torch::Tensor gelu_forward(const torch::Tensor &x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "gelu: expected a float32 CUDA tensor");
  torch::Tensor xc = x.contiguous();
  torch::Tensor y = at::empty_like(xc);
  const int64_t n = xc.numel();
  cache_dit::gelu::gelu_fwd_kernel<<<cache_dit::gelu::num_blocks(n), cache_dit::gelu::kThreadsPerBlock, 0,
                              at::cuda::getCurrentCUDAStream()>>>(xc.data_ptr<float>(),
                                                                  y.data_ptr<float>(), n);
  return y;
}
} // namespace cache_dit::gelu
