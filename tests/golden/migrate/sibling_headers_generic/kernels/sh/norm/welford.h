// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/norm/welford.h
// Plants: used only by the sibling, but the only header that brings <cuda_bf16.h> into norm_ops.cu.
#pragma once

#include <cuda_bf16.h>

namespace opmig::kernels::sh::norm {

struct WelfordState {
  float mean = 0.f, m2 = 0.f;
  int count = 0;
};

} // namespace opmig::kernels::sh::norm
