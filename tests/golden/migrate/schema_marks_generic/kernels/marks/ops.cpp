// Migrated by opmig from example.org/schema_marks_generic at 0123456789abcdef0123456789abcdef01234567: csrc/ops.cpp
// Plants: the torch-facing functions; each hands its tensors to a launcher
// of another TU, so no write is visible here.
#include "marks/ops.h"

#include "marks/launch.h"

namespace opmig::kernels::marks {
void fill_rows(at::Tensor out, double value) {
  TORCH_CHECK(out.scalar_type() == at::kFloat, "fill_rows: out must be float32");
  launch_fill(out, static_cast<float>(value));
}

void masked_copy(const at::Tensor &src, const at::Tensor &dest, std::optional<at::Tensor> hits) {
  TORCH_CHECK(src.numel() == dest.numel(), "masked_copy: src and dest must have as many elements");
  launch_masked_copy(src, dest, hits ? &*hits : nullptr);
}

at::Tensor row_max(const at::Tensor &x) {
  TORCH_CHECK(x.dim() == 2 && x.scalar_type() == at::kFloat, "row_max: x must be 2-D float32");
  at::Tensor out = at::empty({x.size(0)}, x.options());
  launch_row_max(x, out);
  return out;
}
} // namespace opmig::kernels::marks
