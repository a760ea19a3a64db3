// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/common/check.h
// Plants: an argument check macro that both ops of every TU expand.
#pragma once

#include <ATen/ATen.h>

#define SH_CHECK_FLOAT(x) TORCH_CHECK((x).scalar_type() == at::kFloat, #x " must be float32")
