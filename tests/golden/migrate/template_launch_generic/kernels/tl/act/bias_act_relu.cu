// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/act/bias_act_relu.cu
// Plants: the `true` instantiation.
#include "tl/act/bias_act_impl.cuh"

template struct opmig::kernels::tl::BiasAct<true>;
