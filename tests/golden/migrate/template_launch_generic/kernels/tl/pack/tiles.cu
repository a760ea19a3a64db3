// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/tiles.cu
// Plants: a member of a class template given only by explicit specializations, one per dtype.
#include <ATen/core/Tensor.h>

#include "tl/pack/pack.cuh"

template <> int opmig::kernels::tl::Tiler<float>::tiles(int n) { return (n + 255) / 256; }
template <> int opmig::kernels::tl::Tiler<c10::Half>::tiles(int n) { return (n + 127) / 128; }
