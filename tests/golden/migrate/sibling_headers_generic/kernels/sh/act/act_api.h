// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/act_api.h
// Plants: one header declaring both ops' launchers: whichever is the entry needs it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace opmig::kernels::sh::act {

void launch_gelu(const float *x, float *out, int64_t n, cudaStream_t stream);
void launch_silu(const float *x, float *out, int64_t n, cudaStream_t stream);

} // namespace opmig::kernels::sh::act
