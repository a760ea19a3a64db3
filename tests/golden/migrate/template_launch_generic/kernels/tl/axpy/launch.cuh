// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/axpy/launch.cuh
// Plants: a launcher that is a member of a class template, declared only (no body visible here).
#pragma once

#include <cuda_runtime.h>

namespace opmig::kernels::tl {

template <typename T> struct AxpyLauncher {
  static void run(const T *x, T *y, int n, cudaStream_t stream);
  static int blocks(int n);
};

} // namespace opmig::kernels::tl
