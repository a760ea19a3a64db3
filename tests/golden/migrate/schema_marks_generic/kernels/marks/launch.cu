// Migrated by opmig from example.org/schema_marks_generic at 0123456789abcdef0123456789abcdef01234567: csrc/launch.cu
// Plants: the kernels and their launchers; the writes are here.
#include <c10/cuda/CUDAStream.h>

#include <cstdint>

#include "marks/launch.h"

namespace {

__global__ void fill_kernel(float *out, float value, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = value;
}

__global__ void masked_copy_kernel(const float *src, float *dest, int *hits, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n && src[i] != 0.f) {
    dest[i] = src[i];
    if (hits)
      atomicAdd(hits, 1);
  }
}

__global__ void row_max_kernel(const float *x, float *out, int64_t rows, int64_t cols) {
  const int64_t r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float best = x[r * cols];
  for (int64_t c = 1; c < cols; ++c)
    best = fmaxf(best, x[r * cols + c]);
  out[r] = best;
}

unsigned blocksFor(int64_t n) { return static_cast<unsigned>((n + 255) / 256); }

} // namespace

namespace opmig::kernels::marks {
void launch_fill(const at::Tensor &out, float value) {
  fill_kernel<<<blocksFor(out.numel()), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), value, out.numel());
}

void launch_masked_copy(const at::Tensor &src, const at::Tensor &dest, const at::Tensor *hits) {
  masked_copy_kernel<<<blocksFor(src.numel()), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      src.data_ptr<float>(), dest.data_ptr<float>(), hits ? hits->data_ptr<int>() : nullptr,
      src.numel());
}

void launch_row_max(const at::Tensor &x, const at::Tensor &out) {
  row_max_kernel<<<blocksFor(x.size(0)), 256, 0, c10::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), out.data_ptr<float>(), x.size(0), x.size(1));
}
} // namespace opmig::kernels::marks
