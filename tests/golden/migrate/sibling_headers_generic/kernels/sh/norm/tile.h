// Migrated by opmig from example.org/sibling_headers_generic at 0123456789abcdef0123456789abcdef01234567: csrc/norm/tile.h
// Plants: a block-size macro that norm_ops.cu uses only at file scope, in a static_assert.
#pragma once

#define SH_NORM_TILE 256
