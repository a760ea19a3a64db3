// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/axpy/launch_f32.cu
// Plants: a whole-class explicit instantiation (`template struct`) for float.
#include "tl/axpy/launch_impl.cuh"

template struct opmig::kernels::tl::AxpyLauncher<float>;
