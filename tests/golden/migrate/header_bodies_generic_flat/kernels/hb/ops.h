// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: python/csrc/ops.h
// Plants: torch-facing wrappers with non-inline bodies in a header (every includer emits them).
// Each entry's siblings go, with the includes only they use; an inline helper that stays keeps
// the header it calls into declared.
#pragma once

#include <torch/extension.h>

#include "hb/interop/torch.h"
#include "hb/gemm/gemm.h"
#include "hb/quant/quant.h"

namespace opmig::kernels::hb::ops {

// Inline, so not a sibling: it stays whatever the entry, and so does what it calls.
inline void check_same_device(const torch::Tensor &a, const torch::Tensor &b) {
  TORCH_CHECK(opmig::kernels::hb::same_device(to_view(a), to_view(b)), "tensors on different devices");
}

void gemm(torch::Tensor out, torch::Tensor a, torch::Tensor b) {
  OpContext ctx;
  check_same_device(a, b);
  opmig::kernels::hb::kernels::gemm(to_view(out), to_view(a), to_view(b));
}

void quantize(torch::Tensor out, torch::Tensor x, double scale) {
  opmig::kernels::hb::kernels::quantize(to_view(out), to_view(x), static_cast<float>(scale));
}

} // namespace opmig::kernels::hb::ops
