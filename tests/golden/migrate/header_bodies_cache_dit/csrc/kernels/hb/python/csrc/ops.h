// Migrated by opmig from example.org/header_bodies_cache_dit at 0123456789abcdef0123456789abcdef01234567: python/csrc/ops.h
// Plants: torch-facing wrappers with non-inline bodies in a header (every includer emits them).
// Each entry's siblings go, with the includes only they use; an inline helper that stays keeps
// the header it calls into declared.
#pragma once

#include <torch/extension.h>

#include "hb/src/interop/torch.h"
#include "hb/src/kernels/gemm/gemm.h"

namespace hb::ops {

// Inline, so not a sibling: it stays whatever the entry, and so does what it calls.
inline void check_same_device(const torch::Tensor &a, const torch::Tensor &b) {
  TORCH_CHECK(::hb::same_device(cache_dit::hb::to_view(a), cache_dit::hb::to_view(b)), "tensors on different devices");
}

void gemm(torch::Tensor out, torch::Tensor a, torch::Tensor b) {
  cache_dit::hb::OpContext ctx;
  check_same_device(a, b);
  ::hb::kernels::gemm(cache_dit::hb::to_view(out), cache_dit::hb::to_view(a), cache_dit::hb::to_view(b));
}

} // namespace hb::ops
