// Migrated by opmig from example.org/multi_op_generic at 0123456789abcdef0123456789abcdef01234567: csrc/common/sm90_math.cuh
// Plants: a header needed only by the device pass (included under __CUDA_ARCH__ >= 900).
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::fused::sm90 {

// exp(x) as 2^(x * log2(e)) with the approximate ex2 instruction.
__device__ __forceinline__ float hopper_fast_exp(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x * 1.4426950408889634f));
  return y;
}

} // namespace opmig::kernels::fused::sm90
