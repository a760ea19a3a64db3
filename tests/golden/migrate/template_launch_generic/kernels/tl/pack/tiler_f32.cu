// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/tiler_f32.cu
// Plants: a member template of a class template and a nested class template, instantiated for float.
#include "tl/pack/pack_impl.cuh"

template void opmig::kernels::tl::Tiler<float>::launch<256>(const float *, float *, int, cudaStream_t);
template struct opmig::kernels::tl::Tiler<float>::Edge<256>;
