// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/interop/torch.h
// Plants: an interop header in the global namespace with inline helpers only (nothing to slice).
#pragma once

#include <torch/extension.h>

#include "hb/interop/view.h"

#include <tinylog/log.h>

namespace opmig::kernels::hb {
// A scope guard as nunchaku's TorchOpContext: deleted copies and a defaulted constructor are
// defined by their `= delete` / `= default`, nothing to link.
class OpContext {
public:
  OpContext() = default;
  OpContext(const OpContext &) = delete;
  OpContext &operator=(const OpContext &) = delete;
};

inline opmig::kernels::hb::View to_view(const torch::Tensor &t) {
#if HB_TRACE
  tinylog::trace("to_view");
#endif
  return opmig::kernels::hb::View{t.data_ptr(), t.numel(), t.is_cuda() ? 1 : 0};
}
} // namespace opmig::kernels::hb
