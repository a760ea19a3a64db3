// Migrated by opmig from example.org/sample_cache_dit_spec_shaped at 0123456789abcdef0123456789abcdef01234567: csrc/attention/merge_attn_states_bf16.cu
// bfloat16 instantiation of the attention-state merge.
#include "attn/attention/merge_attn_states_kernel.cuh"

SAMPLE_INSTANTIATE_MERGE(__nv_bfloat16)
