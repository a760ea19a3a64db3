// Migrated by opmig from example.org/header_bodies_generic_flat at 0123456789abcdef0123456789abcdef01234567: src/interop/view.h
// Plants: a plain struct and a function declared here, defined in view.cpp (needed by the inline
// helper every entry keeps).
#pragma once

#include <cstdint>

namespace opmig::kernels::hb {

struct View {
  void *data = nullptr;
  int64_t numel = 0;
  int device = 0;
};

bool same_device(const View &a, const View &b);

} // namespace opmig::kernels::hb
