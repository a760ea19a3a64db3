// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/interop/view.cpp
// Plants: the definition the inline helper in ops.h needs, whatever the entry.
#include "hb/interop/view.h"

namespace opmig::kernels::hb {

bool same_device(const View &a, const View &b) { return a.device == b.device; }

} // namespace opmig::kernels::hb
