// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/attention/merge_attn_states.cu
// Host wrapper of merge_attn_states: checks, allocation, dtype dispatch.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "sample_ops/attention/merge_attn_states.h"
#include "sample_ops/common/checks.h"
#include "sample_ops/common/dispatch.h"
#include "sample_ops/ops.h"

namespace opmig::kernels::sample_ops {
std::tuple<at::Tensor, at::Tensor> merge_attn_states(const at::Tensor &v_a, const at::Tensor &lse_a,
                                                     const at::Tensor &v_b,
                                                     const at::Tensor &lse_b) {
  SAMPLE_CHECK_INPUT(v_a);
  SAMPLE_CHECK_INPUT(v_b);
  SAMPLE_CHECK_INPUT(lse_a);
  SAMPLE_CHECK_INPUT(lse_b);
  TORCH_CHECK(v_a.dim() == 3, "merge_attn_states: v_a must be [tokens, heads, head_size]");
  TORCH_CHECK(v_a.scalar_type() == v_b.scalar_type(),
              "merge_attn_states: v_a and v_b must have the same dtype");
  TORCH_CHECK(lse_a.scalar_type() == at::kFloat && lse_b.scalar_type() == at::kFloat,
              "merge_attn_states: lse_a and lse_b must be float32");
  const int64_t tokens = v_a.size(0);
  const int64_t heads = v_a.size(1);
  const int64_t head_size = v_a.size(2);
  TORCH_CHECK(v_b.dim() == 3 && v_b.size(0) == tokens && v_b.size(1) == heads &&
                  v_b.size(2) == head_size,
              "merge_attn_states: v_a and v_b must have the same shape");
  TORCH_CHECK(lse_a.dim() == 2 && lse_a.size(0) == tokens && lse_a.size(1) == heads,
              "merge_attn_states: lse_a must be [tokens, heads]");
  TORCH_CHECK(lse_b.dim() == 2 && lse_b.size(0) == tokens && lse_b.size(1) == heads,
              "merge_attn_states: lse_b must be [tokens, heads]");

  const c10::cuda::CUDAGuard guard(v_a.device());
  at::Tensor out = at::empty_like(v_a);
  at::Tensor out_lse = at::empty({tokens, heads}, lse_a.options());
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  SAMPLE_DISPATCH_FLOAT_TYPES(v_a.scalar_type(), "merge_attn_states", [&] {
    opmig::kernels::sample_ops::launch_merge_attn_states<scalar_t>(
        reinterpret_cast<const scalar_t *>(v_a.data_ptr()), lse_a.data_ptr<float>(),
        reinterpret_cast<const scalar_t *>(v_b.data_ptr()), lse_b.data_ptr<float>(),
        reinterpret_cast<scalar_t *>(out.data_ptr()), out_lse.data_ptr<float>(), tokens * heads,
        static_cast<int>(head_size), stream);
  });
  return {out, out_lse};
}
} // namespace opmig::kernels::sample_ops
