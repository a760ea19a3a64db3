// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/rows/rows_f32.cu
// Plants: explicit instantiation of a single member of a class template.
#include "tl/rows/rows_impl.cuh"

template void opmig::kernels::tl::RowScaler<float, 128>::launch(const float *, float *, int, int, cudaStream_t);
