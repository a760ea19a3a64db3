// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/gate/vec_width.cu
// Plants: explicit specializations of a static data member, one per dtype.
#include <ATen/core/Tensor.h>

#include "tl/gate/vec.h"

template <> const int opmig::kernels::tl::VecWidth<float>::value = 4;
template <> const int opmig::kernels::tl::VecWidth<c10::Half>::value = 8;
