// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/pack_impl.cuh
// Plants: the out-of-line bodies, included only by the TUs that instantiate them.
#pragma once

#include "tl/pack/pack.cuh"

namespace opmig::kernels::tl {

template <typename T> __global__ void pack_copy_kernel(const T *x, T *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = x[i];
}

template <typename T> void Packer<T, true>::run(const T *x, T *out, int n, cudaStream_t stream) {
  pack_copy_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, out, n);
}

template <typename T> void Packer<T, false>::run(const T *x, T *out, int n, cudaStream_t stream) {
  pack_copy_kernel<<<(n + 127) / 128, 128, 0, stream>>>(x, out, n);
}

template <typename T>
template <int Tile>
void Tiler<T>::launch(const T *x, T *out, int n, cudaStream_t stream) {
  pack_copy_kernel<<<(n + Tile - 1) / Tile, Tile, 0, stream>>>(x, out, n);
}

template <typename T>
template <int Tile>
void Tiler<T>::Edge<Tile>::fix(T *out, int n, cudaStream_t stream) {
  (void)out;
  (void)n;
  (void)stream;
}

} // namespace opmig::kernels::tl
