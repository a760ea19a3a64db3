// Registers the sample library's operators with the PyTorch dispatcher.
#include <torch/library.h>

#include "ops.h"

TORCH_LIBRARY(sample_ops, m) {
  m.def("merge_attn_states(Tensor v_a, Tensor lse_a, Tensor v_b, Tensor lse_b) -> (Tensor, Tensor)");
  m.def("rms_norm(Tensor x, Tensor weight, float eps) -> Tensor");
}

TORCH_LIBRARY_IMPL(sample_ops, CUDA, m) {
  m.impl("merge_attn_states", &merge_attn_states);
  m.impl("rms_norm", &rms_norm);
}
