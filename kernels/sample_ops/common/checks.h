// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/common/checks.h
// Input checks shared by the host wrappers (messages carry no integers on purpose).
#pragma once

#include <ATen/core/Tensor.h>

#define SAMPLE_CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
#define SAMPLE_CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")
#define SAMPLE_CHECK_INPUT(x)                                                  \
  SAMPLE_CHECK_CUDA(x);                                                        \
  SAMPLE_CHECK_CONTIGUOUS(x)
