// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/axpy/launch_f16.cu
// Plants: a whole-class explicit instantiation spelled `template class`, for c10::Half.
#include <ATen/core/Tensor.h>

#include "tl/axpy/launch_impl.cuh"

namespace opmig::kernels::tl {
template class AxpyLauncher<c10::Half>;
} // namespace opmig::kernels::tl
