// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/pack.cuh
// Plants: partial specializations, a member template, a nested class template and a member given
// only by explicit specializations, all declared here with no body visible.
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::tl {

template <typename T, bool Vec> struct Packer;

template <typename T> struct Packer<T, true> {
  static void run(const T *x, T *out, int n, cudaStream_t stream);
};

template <typename T> struct Packer<T, false> {
  static void run(const T *x, T *out, int n, cudaStream_t stream);
};

template <typename T> struct Tiler {
  template <int Tile> static void launch(const T *x, T *out, int n, cudaStream_t stream);
  template <int Tile> struct Edge {
    static void fix(T *out, int n, cudaStream_t stream);
  };
  static int tiles(int n);
};

} // namespace opmig::kernels::tl
