// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/bias_act.cuh
// Plants: a launcher templated on a bool.
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::tl {

template <bool kRelu> struct BiasAct {
  static void run(const float *x, float *out, int n, cudaStream_t stream);
};

} // namespace opmig::kernels::tl
