// Migrated by opmig from opmig/samples/upstream at tree:66246a08e9f94d707a7c48f231f61775eab68fd2: samples/upstream/csrc/attention/merge_attn_states_bf16.cu
// bfloat16 instantiation of the attention-state merge.
#include "sample_ops/attention/merge_attn_states_kernel.cuh"

SAMPLE_INSTANTIATE_MERGE(__nv_bfloat16)
