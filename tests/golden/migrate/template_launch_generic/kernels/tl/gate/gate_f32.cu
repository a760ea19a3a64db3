// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/gate/gate_f32.cu
// Plants: the instantiation an `extern template` promised, for float.
#include "tl/gate/gate.cuh"

template struct opmig::kernels::tl::Gate<float>;
