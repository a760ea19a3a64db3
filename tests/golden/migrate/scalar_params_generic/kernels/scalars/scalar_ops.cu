// Migrated by opmig from example.org/scalar_params_generic at 0123456789abcdef0123456789abcdef01234567: csrc/scalar_ops.cu
// Plants: three ops taking float, int, long long and double scalars.
#include <c10/cuda/CUDAStream.h>

#include <cstdint>

#include "scalars/ops.h"

namespace {

__global__ void affine_kernel(const float *x, float *out, float scale, float shift, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] * scale + shift;
}

__global__ void fill_kernel(float *out, float value, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

unsigned blocksFor(int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

} // namespace

namespace opmig::kernels::scalars {
at::Tensor scale_shift(const at::Tensor &x, float scale, int shift) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "scale_shift: x must be float32");
  at::Tensor out = at::empty_like(x);
  affine_kernel<<<blocksFor(x.numel()), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), scale, static_cast<float>(shift), x.numel());
  return out;
}

void fill_value(at::Tensor &out, float value, std::optional<long long> count) {
  TORCH_CHECK(out.scalar_type() == at::kFloat, "fill_value: out must be float32");
  const int64_t n = count ? static_cast<int64_t>(*count) : out.numel();
  TORCH_CHECK(n >= 0 && n <= out.numel(), "fill_value: count out of range");
  fill_kernel<<<blocksFor(n), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(out.data_ptr<float>(),
                                                                           value, n);
}

at::Tensor add_bias(const at::Tensor &x, double bias) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "add_bias: x must be float32");
  at::Tensor out = at::empty_like(x);
  affine_kernel<<<blocksFor(x.numel()), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), 1.f, static_cast<float>(bias), x.numel());
  return out;
}
} // namespace opmig::kernels::scalars
