// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/common/dispatch.h
// Plants: the tree's own dtype dispatch (float and c10::Half) and a bool dispatch helper that
// calls a template lambda with the flag as a template argument.
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>

#define TL_DISPATCH_CASE(ENUM, TYPE, ...)                                                          \
  case ENUM: {                                                                                     \
    using scalar_t = TYPE;                                                                         \
    __VA_ARGS__();                                                                                 \
    break;                                                                                         \
  }

#define TL_DISPATCH_FLOAT(DTYPE, NAME, ...)                                                        \
  [&] {                                                                                            \
    switch (DTYPE) {                                                                               \
      TL_DISPATCH_CASE(at::ScalarType::Float, float, __VA_ARGS__)                                  \
      TL_DISPATCH_CASE(at::ScalarType::Half, c10::Half, __VA_ARGS__)                               \
    default:                                                                                       \
      TORCH_CHECK(false, NAME, ": unsupported dtype");                                             \
    }                                                                                              \
  }()

namespace opmig::kernels::tl {

template <typename F> void dispatchBool(bool Flag, F &&Body) {
  if (Flag)
    Body.template operator()<true>();
  else
    Body.template operator()<false>();
}

} // namespace opmig::kernels::tl
