// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/common/dispatch.h
// Runs a lambda with `scalar_t` bound to the CUDA type matching a tensor's dtype.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <ATen/core/Tensor.h>

#define SAMPLE_DISPATCH_CASE(ENUM, TYPE, ...)                                  \
  case ENUM: {                                                                 \
    using scalar_t = TYPE;                                                     \
    __VA_ARGS__();                                                             \
    break;                                                                     \
  }

#define SAMPLE_DISPATCH_FLOAT_TYPES(DTYPE, NAME, ...)                          \
  [&] {                                                                        \
    switch (DTYPE) {                                                           \
      SAMPLE_DISPATCH_CASE(at::ScalarType::Float, float, __VA_ARGS__)          \
      SAMPLE_DISPATCH_CASE(at::ScalarType::Half, __half, __VA_ARGS__)          \
      SAMPLE_DISPATCH_CASE(at::ScalarType::BFloat16, __nv_bfloat16,            \
                           __VA_ARGS__)                                        \
    default:                                                                   \
      TORCH_CHECK(false, NAME, ": expected float32, float16 or bfloat16");     \
    }                                                                          \
  }()
