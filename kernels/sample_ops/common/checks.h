// Migrated by opmig from opmig/samples/upstream at tree:66246a08e9f94d707a7c48f231f61775eab68fd2: samples/upstream/csrc/common/checks.h
// Input checks shared by the host wrappers (messages carry no integers on purpose).
#pragma once

#include <ATen/ATen.h>

#define SAMPLE_CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
#define SAMPLE_CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")
#define SAMPLE_CHECK_INPUT(x)                                                  \
  SAMPLE_CHECK_CUDA(x);                                                        \
  SAMPLE_CHECK_CONTIGUOUS(x)
