// Migrated by opmig from example.org/pybind_cache_dit at 0123456789abcdef0123456789abcdef01234567: include/gelu_common.cuh
// Plants: one header shared by both ops (forward uses gelu_value, backward uses gelu_grad).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace cache_dit::gelu {

constexpr float kSqrt2OverPi = 0.7978845608028654f;
constexpr float kCoeff = 0.044715f;
constexpr int kThreadsPerBlock = 128;

// tanh approximation of GELU.
__device__ __forceinline__ float gelu_value(float x) {
  const float u = kSqrt2OverPi * (x + kCoeff * x * x * x);
  return 0.5f * x * (1.f + tanhf(u));
}

__device__ __forceinline__ float gelu_grad(float x) {
  const float u = kSqrt2OverPi * (x + kCoeff * x * x * x);
  const float t = tanhf(u);
  const float du = kSqrt2OverPi * (1.f + 3.f * kCoeff * x * x);
  return 0.5f * (1.f + t) + 0.5f * x * (1.f - t * t) * du;
}

inline int num_blocks(int64_t n) {
  return static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

} // namespace cache_dit::gelu
