// Migrated by opmig from example.org/pybind_cache_dit at 0123456789abcdef0123456789abcdef01234567: include/gelu.h
// Plants: host entry points declared in an include/ header, defined in src/*.cu, bound by pybind in src/module.cpp.
#pragma once

#include <torch/extension.h>

namespace cache_dit::gelu {
torch::Tensor gelu_forward(const torch::Tensor &x);
torch::Tensor gelu_backward(const torch::Tensor &grad, const torch::Tensor &x);
} // namespace cache_dit::gelu
