// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/pack_scalar_f16.cu
// Plants: the scalar partial specialization for c10::Half (the ladder's other branch).
#include <ATen/core/Tensor.h>

#include "tl/pack/pack_impl.cuh"

template struct opmig::kernels::tl::Packer<c10::Half, false>;
