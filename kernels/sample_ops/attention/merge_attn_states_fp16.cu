// Migrated by opmig from opmig/samples/upstream at tree:0930e241d617912dfa8af3b0ef51b6f6950a00f7: samples/upstream/csrc/attention/merge_attn_states_fp16.cu
// float16 instantiation of the attention-state merge.
#include "sample_ops/attention/merge_attn_states_kernel.cuh"

SAMPLE_INSTANTIATE_MERGE(__half)
