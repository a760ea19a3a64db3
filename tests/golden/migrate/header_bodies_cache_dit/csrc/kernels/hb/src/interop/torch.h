// Migrated by opmig from example.org/header_bodies_cache_dit at 0123456789abcdef0123456789abcdef01234567: src/interop/torch.h
// Plants: an interop header in the global namespace with inline helpers only (nothing to slice).
#pragma once

#include <torch/extension.h>

#include "hb/src/interop/view.h"

namespace cache_dit::hb {
inline ::hb::View to_view(const torch::Tensor &t) {
  return ::hb::View{t.data_ptr(), t.numel(), t.is_cuda() ? 1 : 0};
}
} // namespace cache_dit::hb
