// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/bias_act_impl.cuh
// Plants: the definition of the bool launcher and its kernel.
#pragma once

#include "tl/act/bias_act.cuh"

namespace opmig::kernels::tl {

template <bool kRelu> __global__ void bias_act_kernel(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = kRelu && x[i] < 0.f ? 0.f : x[i];
}

template <bool kRelu>
void BiasAct<kRelu>::run(const float *x, float *out, int n, cudaStream_t stream) {
  bias_act_kernel<kRelu><<<(n + 127) / 128, 128, 0, stream>>>(x, out, n);
}

} // namespace opmig::kernels::tl
