// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/norm/rms_norm.cu
// RMS normalisation over the last dimension, one block per row, float32 accumulation.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "sample_ops/common/checks.h"
#include "sample_ops/common/dispatch.h"
#include "sample_ops/common/reduce.cuh"
#include "sample_ops/common/type_convert.cuh"
#include "sample_ops/ops.h"

namespace opmig::kernels::sample_ops {

constexpr int kRmsNormThreads = 256;

template <typename T>
__global__ void rms_norm_kernel(const T *__restrict__ x, const T *__restrict__ weight,
                                T *__restrict__ out, int hidden, float eps) {
  const T *row_in = x + static_cast<int64_t>(blockIdx.x) * hidden;
  T *row_out = out + static_cast<int64_t>(blockIdx.x) * hidden;
  float sum_sq = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float v = to_float(row_in[i]);
    sum_sq += v * v;
  }
  sum_sq = block_sum(sum_sq);
  const float inv_rms = rsqrtf(sum_sq / static_cast<float>(hidden) + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    row_out[i] = from_float<T>(to_float(row_in[i]) * inv_rms * to_float(weight[i]));
  }
}

} // namespace opmig::kernels::sample_ops

namespace opmig::kernels::sample_ops {
at::Tensor rms_norm(const at::Tensor &x, const at::Tensor &weight, double eps) {
  SAMPLE_CHECK_INPUT(x);
  SAMPLE_CHECK_INPUT(weight);
  TORCH_CHECK(x.dim() >= 1, "rms_norm: x must have at least one dimension");
  TORCH_CHECK(x.scalar_type() == weight.scalar_type(), "rms_norm: x and weight dtypes differ");
  const int64_t hidden = x.size(x.dim() - 1);
  TORCH_CHECK(weight.dim() == 1 && weight.size(0) == hidden,
              "rms_norm: weight must match the last dimension of x");
  const c10::cuda::CUDAGuard guard(x.device());
  at::Tensor out = at::empty_like(x);
  const int64_t rows = hidden == 0 ? 0 : x.numel() / hidden;
  if (rows == 0) return out;
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  SAMPLE_DISPATCH_FLOAT_TYPES(x.scalar_type(), "rms_norm", [&] {
    opmig::kernels::sample_ops::rms_norm_kernel<scalar_t>
        <<<static_cast<unsigned>(rows), opmig::kernels::sample_ops::kRmsNormThreads, 0, stream>>>(
            reinterpret_cast<const scalar_t *>(x.data_ptr()),
            reinterpret_cast<const scalar_t *>(weight.data_ptr()),
            reinterpret_cast<scalar_t *>(out.data_ptr()), static_cast<int>(hidden),
            static_cast<float>(eps));
  });
  return out;
}
} // namespace opmig::kernels::sample_ops
