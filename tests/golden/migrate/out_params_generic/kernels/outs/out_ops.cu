// Migrated by opmig from example.org/out_params_generic at 0123456789abcdef0123456789abcdef01234567: csrc/out_ops.cu
// Plants: outputs taken by value, by const reference, as an optional and by non-const reference
// to an optional, written by the body; and a non-const reference that is only rebound.
#include <c10/cuda/CUDAStream.h>

#include <cstdint>
#include <optional>

#include "outs/ops.h"

namespace {

__global__ void scale_kernel(float *out, const float *x, float scale, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i] * scale;
}

// One thread per row; `mean` may be null.
__global__ void row_sum_kernel(float *out, float *mean, const float *x, int64_t rows,
                               int64_t cols) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float sum = 0.f;
  for (int64_t c = 0; c < cols; ++c)
    sum += x[r * cols + c];
  out[r] = sum;
  if (mean)
    mean[r] = sum / static_cast<float>(cols);
}

// One thread per row.
__global__ void row_max_kernel(float *out, const float *x, int64_t rows, int64_t cols) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float best = x[r * cols];
  for (int64_t c = 1; c < cols; ++c)
    best = fmaxf(best, x[r * cols + c]);
  out[r] = best;
}

unsigned blocksFor(int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

// `out` arrives by const reference: written all the same, through its data pointer.
void launch_scale(const at::Tensor &out, const at::Tensor &x, float scale) {
  scale_kernel<<<blocksFor(x.numel()), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), scale, x.numel());
}

} // namespace

namespace opmig::kernels::outs {
void scale_into(at::Tensor out, const at::Tensor &x, double scale) {
  TORCH_CHECK(out.scalar_type() == at::kFloat && x.scalar_type() == at::kFloat,
              "scale_into: out and x must be float32");
  TORCH_CHECK(out.numel() == x.numel(), "scale_into: out and x must have as many elements");
  launch_scale(out, x, static_cast<float>(scale));
}

void row_sum(const at::Tensor &x, const at::Tensor &out, std::optional<at::Tensor> mean) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat, "row_sum: x must be 2-D float32");
  TORCH_CHECK(out.numel() == x.size(0), "row_sum: out must have one element per row");
  float *mean_ptr = mean.has_value() ? mean->data_ptr<float>() : nullptr;
  row_sum_kernel<<<blocksFor(x.size(0)), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), mean_ptr, x.data_ptr<float>(), x.size(0), x.size(1));
}

at::Tensor accumulate(at::Tensor acc, const at::Tensor &x) {
  acc.add_(x);
  return acc;
}

// Nothing to do without the output; with it, written through its data pointer.
void row_max(const at::Tensor &x, c10::optional<at::Tensor> &max_out_) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat, "row_max: x must be 2-D float32");
  if (!max_out_.has_value())
    return;
  at::Tensor out = max_out_.value();
  TORCH_CHECK(out.numel() == x.size(0), "row_max: max_out must have one element per row");
  row_max_kernel<<<blocksFor(x.size(0)), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), x.size(0), x.size(1));
}

// `x = ...` rebinds this function's handle; the caller's tensor is only read,
// and the result has its shape, read before the rebinding.
at::Tensor scale_rows(at::Tensor &x, double scale) {
  TORCH_CHECK(x.scalar_type() == at::kFloat, "scale_rows: x must be float32");
  const auto shape_og = x.sizes();
  x = x.reshape({-1, x.size(-1)});
  if (!x.is_contiguous())
    x = x.contiguous();
  at::Tensor out = at::empty_like(x);
  launch_scale(out, x, static_cast<float>(scale));
  return out.reshape(shape_og);
}
} // namespace opmig::kernels::outs
