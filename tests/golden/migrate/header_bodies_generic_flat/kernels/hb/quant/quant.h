// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/kernels/quant/quant.h
#pragma once

#include "hb/interop/view.h"

namespace opmig::kernels::hb::kernels {

void quantize(View out, View x, float scale);

} // namespace opmig::kernels::hb::kernels
