// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/common/exp.cuh
// Plants: __CUDA_ARCH__-guarded include and call (sm90 helper on device, generic helper otherwise).
#pragma once

#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "fused/common/sm90_math.cuh"
#endif

namespace opmig::kernels::fused {

__host__ __device__ inline float generic_exp(float x) { return expf(x); }

__host__ __device__ inline float op_exp(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return sm90::hopper_fast_exp(x);
#else
  return generic_exp(x);
#endif
}

} // namespace opmig::kernels::fused
