// Migrated by opmig from example.org/template_launch_generic at 0123456789abcdef0123456789abcdef01234567: csrc/gate/vec.h
// Plants: a static data member of a class template, declared here and defined only by explicit
// specializations in gate/vec_width.cu.
#pragma once

namespace opmig::kernels::tl {

template <typename T> struct VecWidth {
  static const int value;
};

} // namespace opmig::kernels::tl
