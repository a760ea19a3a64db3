// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/pack/pack_vec_f32.cu
// Plants: an instantiation of a partial specialization, for float (the ladder's vector branch).
#include "tl/pack/pack_impl.cuh"

template struct opmig::kernels::tl::Packer<float, true>;
