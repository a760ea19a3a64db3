// float16 instantiation of the attention-state merge.
#include "attention/merge_attn_states_kernel.cuh"

SAMPLE_INSTANTIATE_MERGE(__half)
