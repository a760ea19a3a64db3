// Input checks shared by the host wrappers (messages carry no integers on purpose).
#pragma once

#include <ATen/core/Tensor.h>

#define SAMPLE_CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
#define SAMPLE_CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")
#define SAMPLE_CHECK_INPUT(x)                                                  \
  SAMPLE_CHECK_CUDA(x);                                                        \
  SAMPLE_CHECK_CONTIGUOUS(x)
