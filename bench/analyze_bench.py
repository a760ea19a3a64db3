#!/usr/bin/env python3
"""Benchmark `opmig analyze`: cold time against plain Clang, warm re-run, memory, index speed.

Runs on a tree generated into a temporary directory (deterministic, --tus TUs) and on the
repository's fixtures, then prints the figures. Nothing here asserts a timing: the targets
are printed next to the figures. See bench/README.md for what each figure means.

Standard library only:  python3 bench/analyze_bench.py [--tus 320] [--repeat 1] [--json FILE]
"""

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchlib import (DEFAULT_OPMIG, REPO, STUBS, ClangBaseline, LoadWatch, binary_stamp,
                      inferred_flags, load_note, run_measured)
from benchlib import fill as _fill

TARGET_COLD_RATIO = 1.3     # cold analyze / clang -fsyntax-only (same TUs, sides, flags, -j)
TARGET_WARM_SHARE = 0.05    # warm re-run / cold
TARGET_RSS_MIB = 1024       # peak RSS of a -j 1 run


# --------------------------------------------------------------------------------------------
# The generated tree
# --------------------------------------------------------------------------------------------

DIR_NAMES = [
    "activation", "attention", "kv_cache", "quantization", "layernorm", "rotary", "moe",
    "sampling", "gemm_epilogue", "softmax", "pooling", "conv1d", "embedding", "loss",
    "optimizer", "reduction", "scan", "sorting", "topk", "dropout", "transpose", "gather",
    "scatter", "fp8", "pos_encoding", "mamba", "lora", "spec_decode", "allreduce", "prefix_sum",
]
VERBS = ["fwd", "bwd", "fused", "inplace", "masked", "scaled", "residual", "strided", "packed",
         "varlen", "paged", "split"]
DTYPES = [("fp32", "float", "kFloat32"), ("fp16", "__half", "kFloat16"),
          ("fp64", "double", "kFloat64")]
ACTIVATIONS = ["opb::gelu_tanh(x)", "opb::silu(x)", "fmaxf(x, 0.f)", "x", "opb::fast_exp(x)"]

COMMON_FILES = {
    "common/dtype.h": """\
// Element types the operators dispatch on, and the dispatch macro.
#pragma once

#include <cstdint>

namespace opb {

enum class DType : int { kFloat32 = 0, kFloat16 = 1, kFloat64 = 2 };

inline int dtype_size(DType t) {
  switch (t) {
  case DType::kFloat32:
    return 4;
  case DType::kFloat16:
    return 2;
  case DType::kFloat64:
    return 8;
  }
  return 0;
}

} // namespace opb

#define OPB_DISPATCH_CASE(ENUM, TYPE, ...)                                     \\
  case ENUM: {                                                                 \\
    using scalar_t = TYPE;                                                     \\
    __VA_ARGS__();                                                             \\
    break;                                                                     \\
  }
""",
    "common/cuda_check.h": """\
// Error checks shared by every host wrapper; defined in common/cuda_check.cu.
#pragma once

#include <cuda_runtime.h>

namespace opb {

void check_cuda(cudaError_t err, const char *expr, const char *file, int line);
void fail_arg(const char *msg, const char *file, int line);
const char *last_error();

} // namespace opb

#define OPB_CUDA_CHECK(expr) ::opb::check_cuda((expr), #expr, __FILE__, __LINE__)
#define OPB_CHECK_ARG(cond, msg)                                               \\
  do {                                                                         \\
    if (!(cond))                                                               \\
      ::opb::fail_arg((msg), __FILE__, __LINE__);                              \\
  } while (0)
""",
    "common/cuda_check.cu": """\
// Definitions of the shared error checks.
#include "common/cuda_check.h"

namespace opb {
namespace {
const char *g_last_error = nullptr;
int g_last_line = 0;
} // namespace

void check_cuda(cudaError_t err, const char *expr, const char *file, int line) {
  if (err == cudaSuccess)
    return;
  (void)expr;
  (void)file;
  g_last_error = cudaGetErrorString(err);
  g_last_line = line;
  __builtin_trap();
}

void fail_arg(const char *msg, const char *file, int line) {
  (void)file;
  g_last_error = msg;
  g_last_line = line;
  __builtin_trap();
}

const char *last_error() { return g_last_error; }

} // namespace opb
""",
    "common/type_convert.cuh": """\
// float <-> element type conversions used inside kernels.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace opb {

template <typename T> __device__ __forceinline__ float to_float(T v) {
  return static_cast<float>(v);
}
template <> __device__ __forceinline__ float to_float<__half>(__half v) { return __half2float(v); }

template <typename T> __device__ __forceinline__ T from_float(float v) {
  return static_cast<T>(v);
}
template <> __device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half(v);
}

} // namespace opb
""",
    "common/math.cuh": """\
// Scalar math helpers shared by the kernels.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace opb {

__host__ __device__ constexpr int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

__host__ __device__ constexpr int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

__device__ __forceinline__ float fast_exp(float x) { return __expf(x); }

__device__ __forceinline__ float silu(float x) { return x / (1.f + __expf(-x)); }

__device__ __forceinline__ float gelu_tanh(float x) {
  constexpr float kAlpha = 0.7978845608f;
  constexpr float kBeta = 0.044715f;
  return 0.5f * x * (1.f + tanhf(kAlpha * (x + kBeta * x * x * x)));
}

} // namespace opb
""",
    "common/reduce.cuh": """\
// Warp- and block-level reductions.
#pragma once

#include <cuda_runtime.h>

namespace opb {

template <typename T> __device__ __forceinline__ T warp_reduce_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T> __device__ __forceinline__ T warp_reduce_max(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = other > v ? other : v;
  }
  return v;
}

template <typename T, int kThreads> __device__ T block_reduce_sum(T v) {
  static_assert(kThreads % 32 == 0, "whole warps only");
  __shared__ T partial[kThreads / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_reduce_sum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? partial[lane] : T(0);
  if (warp == 0)
    v = warp_reduce_sum(v);
  return v;
}

template <typename T, int kThreads> __device__ T block_reduce_max(T v) {
  __shared__ T partial[kThreads / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_reduce_max(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < kThreads / 32 ? partial[lane] : partial[0];
  if (warp == 0)
    v = warp_reduce_max(v);
  return v;
}

} // namespace opb
""",
    "common/vec.cuh": """\
// Fixed-width vectors for vectorised loads and stores.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace opb {

template <typename T, int N> struct alignas(sizeof(T) * N) VecN {
  T v[N];
};

template <typename T, int N>
__device__ __forceinline__ VecN<T, N> load_vec(const T *p, int64_t i) {
  return reinterpret_cast<const VecN<T, N> *>(p)[i];
}

template <typename T, int N>
__device__ __forceinline__ void store_vec(T *p, int64_t i, const VecN<T, N> &x) {
  reinterpret_cast<VecN<T, N> *>(p)[i] = x;
}

} // namespace opb
""",
    "common/launch.cuh": """\
// Launch-shape helpers.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "common/math.cuh"

namespace opb {

struct LaunchShape {
  dim3 grid;
  dim3 block;
};

inline LaunchShape grid_stride_shape(int64_t n, int threads, int max_blocks) {
  const int64_t blocks = min_i64(div_up(n, threads), max_blocks);
  return {dim3(static_cast<unsigned>(blocks > 0 ? blocks : 1)), dim3(threads)};
}

inline LaunchShape row_shape(int64_t rows, int threads) {
  return {dim3(static_cast<unsigned>(rows)), dim3(threads)};
}

} // namespace opb
""",
}

KERNEL_HEAD = """\
// Kernel and launcher of @OP@; included only by its per-dtype instantiation TUs.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "@DIR@/@OP@.h"
#include "common/launch.cuh"
#include "common/math.cuh"
#include "common/reduce.cuh"
#include "common/type_convert.cuh"
#include "common/vec.cuh"

namespace opb {
"""

KERNEL_TAIL = """\
} // namespace opb

#define OPB_INSTANTIATE_@UP@(T)                                                \\
  template void opb::launch_@OP@<T>(const T *, T *, int64_t, int, float, int, cudaStream_t);
"""

KERNEL_BODIES = {
    "elementwise": """\
template <typename T>
__global__ void @OP@_kernel(const T *__restrict__ in, T *__restrict__ out, int64_t n, float alpha) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float x = to_float(in[i]);
    out[i] = from_float<T>(@ACT@ * alpha);
  }
}

template <typename T>
void launch_@OP@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
               cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int64_t n = rows * cols;
  if (n == 0)
    return;
  const LaunchShape shape = grid_stride_shape(n, kThreads, max_blocks);
  @OP@_kernel<T><<<shape.grid, shape.block, 0, stream>>>(in, out, n, alpha);
}
""",
    "rownorm": """\
template <typename T, int kThreads>
__global__ void @OP@_kernel(const T *__restrict__ in, T *__restrict__ out, int cols, float eps) {
  const int64_t row = blockIdx.x;
  const T *x = in + row * cols;
  T *y = out + row * cols;
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads) {
    const float v = to_float(x[c]);
    acc += v * v;
  }
  acc = block_reduce_sum<float, kThreads>(acc);
  __shared__ float inv_rms;
  if (threadIdx.x == 0)
    inv_rms = rsqrtf(acc / cols + eps);
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += kThreads)
    y[c] = from_float<T>(to_float(x[c]) * inv_rms);
}

template <typename T>
void launch_@OP@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
               cudaStream_t stream) {
  constexpr int kThreads = 256;
  (void)max_blocks;
  if (rows == 0)
    return;
  const LaunchShape shape = row_shape(rows, kThreads);
  @OP@_kernel<T, kThreads><<<shape.grid, shape.block, 0, stream>>>(in, out, cols, alpha);
}
""",
    "rowsoftmax": """\
template <typename T, int kThreads>
__global__ void @OP@_kernel(const T *__restrict__ in, T *__restrict__ out, int cols, float scale) {
  const int64_t row = blockIdx.x;
  const T *x = in + row * cols;
  T *y = out + row * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads)
    m = fmaxf(m, to_float(x[c]) * scale);
  m = block_reduce_max<float, kThreads>(m);
  __shared__ float row_max, row_sum;
  if (threadIdx.x == 0)
    row_max = m;
  __syncthreads();
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads)
    s += fast_exp(to_float(x[c]) * scale - row_max);
  s = block_reduce_sum<float, kThreads>(s);
  if (threadIdx.x == 0)
    row_sum = s;
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += kThreads)
    y[c] = from_float<T>(fast_exp(to_float(x[c]) * scale - row_max) / row_sum);
}

template <typename T>
void launch_@OP@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
               cudaStream_t stream) {
  constexpr int kThreads = 128;
  (void)max_blocks;
  if (rows == 0)
    return;
  const LaunchShape shape = row_shape(rows, kThreads);
  @OP@_kernel<T, kThreads><<<shape.grid, shape.block, 0, stream>>>(in, out, cols, alpha);
}
""",
    "vectorized": """\
template <typename T, int kVec>
__global__ void @OP@_kernel(const T *__restrict__ in, T *__restrict__ out, int64_t n_vec,
                            float alpha) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n_vec;
       i += stride) {
    VecN<T, kVec> v = load_vec<T, kVec>(in, i);
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      const float x = to_float(v.v[k]);
      v.v[k] = from_float<T>(@ACT@ * alpha + x);
    }
    store_vec<T, kVec>(out, i, v);
  }
}

template <typename T>
void launch_@OP@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
               cudaStream_t stream) {
  constexpr int kThreads = 256;
  constexpr int kVec = 4;
  const int64_t n = rows * cols;
  if (n == 0)
    return;
  const int64_t n_vec = n / kVec; // cols is a multiple of kVec (checked by the wrapper)
  const LaunchShape shape = grid_stride_shape(n_vec, kThreads, max_blocks);
  @OP@_kernel<T, kVec><<<shape.grid, shape.block, 0, stream>>>(in, out, n_vec, alpha);
}
""",
}

OP_HEADER = """\
// Launcher and host wrapper of @OP@.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "common/dtype.h"

namespace opb {

template <typename T>
void launch_@OP@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
               cudaStream_t stream);

} // namespace opb

void @OP@(const void *in, void *out, int64_t rows, int cols, float alpha, opb::DType dtype,
        void *stream);
"""

HOST_WRAPPER_HEAD = """\
// Host wrapper of @OP@: argument checks, dtype dispatch, launch.
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "@DIR@/@DIR@_utils.h"
#include "@DIR@/@OP@.h"
#include "common/cuda_check.h"
#include "common/dtype.h"

void @OP@(const void *in, void *out, int64_t rows, int cols, float alpha, opb::DType dtype,
        void *stream) {
  OPB_CHECK_ARG(in != nullptr && out != nullptr, "@OP@: null tensor");
  OPB_CHECK_ARG(rows >= 0 && cols >= 0, "@OP@: negative shape");
@EXTRA_CHECK@  if (rows == 0 || cols == 0)
    return;
  const int max_blocks = opb::@DIR@_max_blocks(rows, cols);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  switch (dtype) {
"""

HOST_WRAPPER_CASE = """\
    OPB_DISPATCH_CASE(opb::DType::@ENUM@, @TYPE@, [&] {
      opb::launch_@OP@<scalar_t>(static_cast<const scalar_t *>(in), static_cast<scalar_t *>(out),
                               rows, cols, alpha, max_blocks, s);
    })
"""

HOST_WRAPPER_TAIL = """\
  default:
    OPB_CHECK_ARG(false, "@OP@: unsupported dtype");
  }
  OPB_CUDA_CHECK(cudaGetLastError());
}
"""

INSTANTIATION = """\
// @DT@ instantiation of @OP@.
#include "@DIR@/@OP@_kernel.cuh"

OPB_INSTANTIATE_@UP@(@TYPE@)
"""

DIR_UTILS_H = """\
// Launch limits shared by the @DIR@ operators; defined in @DIR@/@DIR@_utils.cu.
#pragma once

#include <cstdint>

namespace opb {

int @DIR@_max_blocks(int64_t rows, int cols);

} // namespace opb
"""

DIR_UTILS_CU = """\
// Launch limits of the @DIR@ operators, from the current device.
#include <cuda_runtime.h>

#include "@DIR@/@DIR@_utils.h"
#include "common/cuda_check.h"
#include "common/math.cuh"

namespace opb {
namespace {

int sm_count() {
  static int cached = 0;
  if (cached == 0) {
    int device = 0;
    OPB_CUDA_CHECK(cudaGetDevice(&device));
    OPB_CUDA_CHECK(cudaDeviceGetAttribute(&cached, cudaDevAttrMultiProcessorCount, device));
  }
  return cached;
}

} // namespace

int @DIR@_max_blocks(int64_t rows, int cols) {
  const int64_t wanted = div_up(rows * static_cast<int64_t>(cols), 256);
  const int64_t cap = static_cast<int64_t>(sm_count()) * @WAVES@;
  return static_cast<int>(min_i64(wanted > 0 ? wanted : 1, cap));
}

} // namespace opb
"""

HELPERS_CU = """\
// Small @DIR@ kernels that no operator entry point needs (@TAG@).
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "common/cuda_check.h"
#include "common/launch.cuh"
#include "common/reduce.cuh"
#include "common/type_convert.cuh"

namespace opb {
namespace {

template <typename T>
__global__ void @DIR@_@TAG@_fill_kernel(T *__restrict__ p, int64_t n, float value) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = from_float<T>(value);
}

template <typename Src, typename Dst>
__global__ void @DIR@_@TAG@_cast_kernel(const Src *__restrict__ in, Dst *__restrict__ out,
                                        int64_t n) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = from_float<Dst>(to_float(in[i]));
}

__global__ void @DIR@_@TAG@_sum_kernel(const float *__restrict__ in, float *__restrict__ out,
                                       int cols) {
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += 256)
    acc += in[static_cast<int64_t>(blockIdx.x) * cols + c];
  acc = block_reduce_sum<float, 256>(acc);
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc;
}

} // namespace

void @DIR@_@TAG@_fill(float *p, int64_t n, float value, cudaStream_t stream) {
  const LaunchShape shape = grid_stride_shape(n, 256, 1024);
  @DIR@_@TAG@_fill_kernel<float><<<shape.grid, shape.block, 0, stream>>>(p, n, value);
  OPB_CUDA_CHECK(cudaGetLastError());
}

void @DIR@_@TAG@_to_half(const float *in, __half *out, int64_t n, cudaStream_t stream) {
  const LaunchShape shape = grid_stride_shape(n, 256, 1024);
  @DIR@_@TAG@_cast_kernel<float, __half><<<shape.grid, shape.block, 0, stream>>>(in, out, n);
  OPB_CUDA_CHECK(cudaGetLastError());
}

void @DIR@_@TAG@_row_sums(const float *in, float *out, int64_t rows, int cols,
                          cudaStream_t stream) {
  const LaunchShape shape = row_shape(rows, 256);
  @DIR@_@TAG@_sum_kernel<<<shape.grid, shape.block, 0, stream>>>(in, out, cols);
  OPB_CUDA_CHECK(cudaGetLastError());
}

} // namespace opb
"""


def generate_tree(root, n_tus, seed=20240611):
    """Writes a deterministic CUDA tree of exactly n_tus TUs under root; returns (entry, info)."""
    rng = random.Random(seed)
    n_dirs = min(len(DIR_NAMES), max(1, (n_tus - 2) // 5))
    dirs = DIR_NAMES[:n_dirs]
    fixed = 2 * n_dirs + 2          # <dir>_utils.cu + <dir>_helpers.cu, cuda_check.cu, registry.cpp
    remaining = n_tus - fixed
    if remaining < 3 * n_dirs:
        raise SystemExit(f"--tus {n_tus} is too small: need at least {fixed + 3 * n_dirs}")
    entry_dir = dirs[min(7, n_dirs - 1)]
    ops = []                        # (dir, op, kind, [dtype tuples])
    per_dir = {d: 0 for d in dirs}
    i = 0
    while remaining >= 3:
        d = dirs[i % n_dirs]
        i += 1
        op = f"{d}_{VERBS[per_dir[d] % len(VERBS)]}"
        if per_dir[d] >= len(VERBS):
            op += str(per_dir[d] // len(VERBS))
        first_of_entry_dir = d == entry_dir and per_dir[d] == 0
        n_dt = 3 if first_of_entry_dir else rng.choice([2, 3])
        n_dt = min(n_dt, remaining - 1)
        dts = DTYPES[:1] + rng.sample(DTYPES[1:], n_dt - 1)
        if first_of_entry_dir:
            dts = list(DTYPES)
        kind = rng.choice(sorted(KERNEL_BODIES))
        ops.append((d, op, kind, dts))
        per_dir[d] += 1
        remaining -= 1 + n_dt
    extra_helpers = remaining       # 0..2 TUs left over: more helper TUs

    csrc = Path(root) / "csrc"
    files = {}
    files.update(COMMON_FILES)
    for k, d in enumerate(dirs):
        files[f"{d}/{d}_utils.h"] = _fill(DIR_UTILS_H, DIR=d)
        files[f"{d}/{d}_utils.cu"] = _fill(DIR_UTILS_CU, DIR=d, WAVES=str(2 + k % 4))
        files[f"{d}/{d}_helpers.cu"] = _fill(HELPERS_CU, DIR=d, TAG="aux")
        if k < extra_helpers:
            files[f"{d}/{d}_helpers_legacy.cu"] = _fill(HELPERS_CU, DIR=d, TAG="legacy")
    for d, op, kind, dts in ops:
        up = op.upper()
        act = rng.choice(ACTIVATIONS)
        files[f"{d}/{op}.h"] = _fill(OP_HEADER, OP=op)
        files[f"{d}/{op}_kernel.cuh"] = (_fill(KERNEL_HEAD, OP=op, DIR=d) + "\n" +
                                         _fill(KERNEL_BODIES[kind], OP=op, ACT=act) + "\n" +
                                         _fill(KERNEL_TAIL, OP=op, UP=up))
        extra = ('  OPB_CHECK_ARG(cols % 4 == 0, "' + op + ': cols must be a multiple of 4");\n'
                 if kind == "vectorized" else "")
        host = _fill(HOST_WRAPPER_HEAD, OP=op, DIR=d, EXTRA_CHECK=extra)
        for _, ctype, enum in dts:
            host += _fill(HOST_WRAPPER_CASE, OP=op, ENUM=enum, TYPE=ctype)
        host += _fill(HOST_WRAPPER_TAIL, OP=op)
        files[f"{d}/{op}.cu"] = host
        for tag, ctype, _ in dts:
            files[f"{d}/{op}_{tag}.cu"] = _fill(INSTANTIATION, DT=tag, OP=op, DIR=d, UP=up,
                                                TYPE=ctype)
    decls = "".join(
        f"void {op}(const void *in, void *out, int64_t rows, int cols, float alpha, "
        f"opb::DType dtype, void *stream);\n" for _, op, _, _ in ops)
    files["ops.h"] = ("// Every operator's host wrapper, for the registry.\n#pragma once\n\n"
                      "#include <cstdint>\n\n#include \"common/dtype.h\"\n\n"
                      "namespace opb {\nusing OpFn = void (*)(const void *, void *, int64_t, int, "
                      "float, DType, void *);\n} // namespace opb\n\n" + decls)
    table = "".join(f'    {{"{op}", &{op}}},\n' for _, op, _, _ in ops)
    files["registry.cpp"] = (
        "// Name -> host wrapper table: this tree's binding layer (no torch here).\n"
        "#include <cstdint>\n\n#include \"ops.h\"\n\nnamespace {\n\n"
        "struct OpEntry {\n  const char *name;\n  opb::OpFn fn;\n};\n\n"
        "const OpEntry kOps[] = {\n" + table + "};\n\n"
        "bool same(const char *a, const char *b) {\n  while (*a && *a == *b) {\n    ++a;\n"
        "    ++b;\n  }\n  return *a == *b;\n}\n\n} // namespace\n\n"
        "opb::OpFn opb_find_op(const char *name) {\n  for (const OpEntry &e : kOps)\n"
        "    if (same(e.name, name))\n      return e.fn;\n  return nullptr;\n}\n\n"
        "int64_t opb_op_count() { return static_cast<int64_t>(sizeof(kOps) / sizeof(kOps[0])); }\n")
    for rel, text in files.items():
        path = csrc / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    n_written = sum(1 for rel in files if rel.endswith((".cu", ".cpp")))
    assert n_written == n_tus, (n_written, n_tus)
    entry = next(op for d, op, _, _ in ops if d == entry_dir)
    info = {"tus": n_written, "files": len(files), "op_dirs": n_dirs, "ops": len(ops)}
    return entry, info


# --------------------------------------------------------------------------------------------
# Running things
# --------------------------------------------------------------------------------------------

class Case:
    def __init__(self, name, source, entry, extra, env=None):
        self.name, self.source, self.entry, self.extra = name, source, entry, extra
        self.env = env  # None: the stand-in headers, with OPMIG_NO_TORCH=1


class Bench:
    def __init__(self, args):
        self.args = args
        self.env = dict(os.environ, OPMIG_NO_TORCH="1")
        self.cuda = os.path.abspath(args.cuda_path or os.environ.get("CUDA_HOME") or
                                    "/usr/local/cuda")
        self.clang = ClangBaseline(args.clang, self.cuda, args.gpu_arch)

    def opmig(self, case, cache_dir, jobs, text_verbose=False):
        argv = [self.args.opmig, "analyze", "--source", case.source, "--entry", case.entry,
                "-j", str(jobs), "--cache-dir", cache_dir, "--cuda-path", self.cuda,
                "--gpu-arch", self.args.gpu_arch, "-q"]
        argv += ["--format", "text", "-v"] if text_verbose else ["--format", "json"]
        if case.extra:
            argv += ["--"] + case.extra
        run = run_measured(argv, env=case.env or self.env)
        if text_verbose:
            return run, None
        try:
            result = json.loads(run.out)
        except ValueError:
            sys.exit(f"opmig failed on {case.name} (rc {run.rc}):\n{run.err[-4000:]}")
        return run, result

    def measure(self, case, scratch):
        args = self.args
        stamp = binary_stamp(args.opmig)
        watch = LoadWatch()
        colds, warms, bases, index_s, read_s, cpu_cold = [], [], [], [], [], []
        stages_cold = []
        inferred = None
        cold_rss = 0
        result_cold = result_warm = None
        for rep in range(args.repeat):
            cache = tempfile.mkdtemp(prefix=f"cache-{case.name}-{rep}-", dir=scratch)
            cold, result_cold = self.opmig(case, cache, args.jobs)
            warm, result_warm = self.opmig(case, cache, args.jobs)
            colds.append(cold.wall)
            cold_rss = max(cold_rss, cold.rss_kib)
            cpu_cold.append(cold.cpu)
            warms.append(warm.wall)
            stages_cold.append(result_cold["stats"]["seconds"])
            for res in (result_cold, result_warm):
                index_s.append(res["stats"]["seconds"]["index"])
                read_s.append(res["stats"]["seconds"]["read"])
            if inferred is None:
                text, _ = self.opmig(case, cache, args.jobs, text_verbose=True)
                inferred = inferred_flags(text.out)
            jobs_argv = self.clang.jobs(case.source, result_cold["stats"]["parsed"], inferred,
                                        case.extra)
            bases.append(self.clang.run(case.source, jobs_argv, args.jobs))
            shutil.rmtree(cache, ignore_errors=True)
        # Peak memory: one cold run with a single worker.
        cache = tempfile.mkdtemp(prefix=f"cache-{case.name}-j1-", dir=scratch)
        serial, result_serial = self.opmig(case, cache, 1)
        shutil.rmtree(cache, ignore_errors=True)
        index_s.append(result_serial["stats"]["seconds"]["index"])
        read_s.append(result_serial["stats"]["seconds"]["read"])

        st = result_cold["stats"]
        med = statistics.median
        binary_changed = binary_stamp(args.opmig) != stamp
        other_cpu = watch.other_cpu()
        case_wall = watch.elapsed()
        base_wall = med(b["wall"] for b in bases)
        cold_wall = med(colds)
        warm_wall = med(warms)
        stage_names = sorted(stages_cold[0])
        fig = {
            "case": case.name,
            "source": case.source_label,
            "entry": case.entry,
            "tus_in_tree": st["tus_in_tree"],
            "files_indexed": st["files_indexed"],
            "tus_parsed": st["tus_parsed"],
            "parsed": st["parsed"],
            "parses_run_cold": st["parses_run"],
            "parses_run_warm": result_warm["stats"]["parses_run"],
            "parses_cached_warm": result_warm["stats"]["parses_cached"],
            "closure_files": len(result_cold["files"]),
            "partial": result_cold["partial"],
            "diagnostics": len(result_cold["diagnostics"]),
            "warm_same_result": _stable(result_cold) == _stable(result_warm),
            "cold_s": cold_wall,
            "cold_runs_s": colds,
            "cold_cpu_s": med(cpu_cold),
            "cold_stages_s": {k: med(s[k] for s in stages_cold) for k in stage_names},
            "clang_parallel_s": base_wall,
            "clang_serial_sum_s": med(b["serial_sum"] for b in bases),
            "clang_cpu_s": med(b["cpu"] for b in bases),
            "clang_max_rss_mib": max(b["max_rss_kib"] for b in bases) / 1024,
            "clang_failed_parses": max(b["failed"] for b in bases),
            "cold_over_clang": cold_wall / base_wall,
            "cold_cpu_over_clang_cpu": med(cpu_cold) / med(b["cpu"] for b in bases),
            "warm_s": warm_wall,
            "warm_runs_s": warms,
            "warm_share": warm_wall / cold_wall,
            "peak_rss_mib_j1": serial.rss_kib / 1024,
            "cold_j1_s": serial.wall,
            "cold_j1_over_clang_serial": serial.wall / med(b["serial_sum"] for b in bases),
            "peak_rss_mib_cold_jN": cold_rss / 1024,
            "index_s": med(index_s),
            "index_tus_per_s": st["tus_in_tree"] / max(med(index_s), 1e-9),
            "read_s": med(read_s),
            "read_tus_per_s": st["tus_in_tree"] / max(med(read_s), 1e-9),
            "inferred_flags": [_redact(f, case) for f in inferred],
            "case_wall_s": case_wall,
            "other_cpu_s": other_cpu,
            "cpus": os.cpu_count(),
            "opmig_binary_changed": binary_changed,
        }
        if bases[0]["failed"]:
            fig["clang_first_error"] = bases[0]["first_error"]
        return fig


def _stable(result):
    return json.dumps({k: result[k] for k in ("files", "symbols", "external", "left_behind",
                                              "unresolved")}, sort_keys=True)


def _redact(flag, case):
    return flag.replace(case.source, "<source>")


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------

def _mark(ok):
    return "meets target" if ok else "MISSES target"


def print_case(f, jobs):
    print(f"\n== {f['case']}: {f['source']}  --entry {f['entry']}")
    print(f"  TUs parsed / in tree      {f['tus_parsed']} / {f['tus_in_tree']}"
          f"  ({100 * f['tus_parsed'] / f['tus_in_tree']:.1f}%; {f['parses_run_cold']} parses;"
          f" {f['files_indexed']} files indexed; {f['closure_files']} files in the closure)")
    stages = "  ".join(f"{k} {v:.3f}" for k, v in f["cold_stages_s"].items())
    print(f"  cold analyze -j{jobs}          {f['cold_s']:8.2f} s   (stages, s: {stages};"
          f" CPU {f['cold_cpu_s']:.1f} s)")
    print(f"  clang -fsyntax-only -j{jobs}   {f['clang_parallel_s']:8.2f} s   (serial sum"
          f" {f['clang_serial_sum_s']:.2f} s; CPU {f['clang_cpu_s']:.1f} s;"
          f" {f['clang_failed_parses']} parses failed)")
    print(f"  1. cold / clang            {f['cold_over_clang']:8.2f}     (target <= "
          f"{TARGET_COLD_RATIO}: {_mark(f['cold_over_clang'] <= TARGET_COLD_RATIO)};"
          f" CPU ratio {f['cold_cpu_over_clang_cpu']:.2f})")
    print(f"  2. warm re-run             {f['warm_s']:8.3f} s = {100 * f['warm_share']:.2f}% of"
          f" cold  (target <= {100 * TARGET_WARM_SHARE:.0f}%:"
          f" {_mark(f['warm_share'] <= TARGET_WARM_SHARE)}; {f['parses_run_warm']} parses run,"
          f" {f['parses_cached_warm']} from cache)")
    print(f"  3. peak RSS, cold -j1      {f['peak_rss_mib_j1']:8.0f} MiB (target < "
          f"{TARGET_RSS_MIB}: {_mark(f['peak_rss_mib_j1'] < TARGET_RSS_MIB)}; that run took"
          f" {f['cold_j1_s']:.2f} s = {f['cold_j1_over_clang_serial']:.2f} x clang serial sum;"
          f" largest clang parse {f['clang_max_rss_mib']:.0f} MiB)")
    print(f"  4. index stage             {f['index_s']:8.4f} s -> {f['index_tus_per_s']:,.0f}"
          f" TUs/s;  read stage {f['read_s']:.4f} s -> {f['read_tus_per_s']:,.0f} TUs/s")
    notes = []
    if f["opmig_binary_changed"]:
        notes.append("the opmig binary was rebuilt during this case: its figures are not valid"
                     " (the warm run misses the cache, since cache keys include the binary)")
    load = load_note(f["other_cpu_s"], f["case_wall_s"])
    if load:
        notes.append(load)
    if f["partial"] or f["diagnostics"]:
        notes.append(f"result partial={f['partial']}, {f['diagnostics']} diagnostics")
    if not f["warm_same_result"]:
        notes.append("warm result differs from cold result")
    if f["parses_run_warm"]:
        notes.append("warm run re-parsed TUs")
    if f.get("clang_first_error"):
        notes.append("a clang parse failed: " + f["clang_first_error"].strip().splitlines()[-1])
    for n in notes:
        print(f"  note: {n}")


def print_summary(figs):
    print("\n== summary")
    head = (f"  {'case':<18}{'parsed/tree':>12}{'cold s':>9}{'clang s':>9}{'ratio':>7}"
            f"{'warm %':>8}{'RSS MiB':>9}{'index TU/s':>12}")
    print(head)
    for f in figs:
        print(f"  {f['case']:<18}{str(f['tus_parsed']) + '/' + str(f['tus_in_tree']):>12}"
              f"{f['cold_s']:>9.2f}{f['clang_parallel_s']:>9.2f}{f['cold_over_clang']:>7.2f}"
              f"{100 * f['warm_share']:>8.2f}{f['peak_rss_mib_j1']:>9.0f}"
              f"{f['index_tus_per_s']:>12,.0f}")
    print(f"  targets: ratio <= {TARGET_COLD_RATIO}, warm <= {100 * TARGET_WARM_SHARE:.0f}%,"
          f" RSS < {TARGET_RSS_MIB} MiB")


# --------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opmig", default=str(DEFAULT_OPMIG),
                    help="opmig binary (default: <repo>/build/tools/opmig/opmig)")
    ap.add_argument("--clang", default="clang++-22", help="clang++ for the baseline")
    ap.add_argument("--tus", type=int, default=320, help="TUs in the generated tree (default 320)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="cold/warm/baseline runs per case; medians are reported (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="parallelism of analyze and of the clang baseline (default 2)")
    ap.add_argument("--cases", default="generated,merge_attn_states,scale,fused_fwd",
                    help="comma-separated subset of: generated, merge_attn_states, scale, fused_fwd,"
                         " template_axpy_torch (real torch from --torch-dir)")
    ap.add_argument("--torch-dir",
                    default=os.path.expanduser("~/.cache/opmig/torch-" +
                                               (REPO / "scripts/torch-version").read_text().strip() + "-full"),
                    help="folder holding the pinned torch package (scripts/install-deps.sh)")
    ap.add_argument("--cuda-path", default="",
                    help="CUDA toolkit root for both sides (default: $CUDA_HOME, else /usr/local/cuda)")
    ap.add_argument("--gpu-arch", default="sm_90", help="device side parsed (default sm_90)")
    ap.add_argument("--keep", action="store_true", help="keep the generated tree")
    ap.add_argument("--json", metavar="FILE", help="also write the figures here as JSON")
    args = ap.parse_args()

    if not (os.path.isfile(args.opmig) and os.access(args.opmig, os.X_OK)):
        sys.exit(f"no opmig binary at {args.opmig} (build it, or wait if it is being rebuilt)")
    if not shutil.which(args.clang):
        sys.exit(f"{args.clang} not found (--clang PATH)")
    if args.repeat < 1 or args.jobs < 1:
        sys.exit("--repeat and --jobs must be at least 1")
    wanted = [c.strip() for c in args.cases.split(",") if c.strip()]

    bench = Bench(args)
    work = tempfile.mkdtemp(prefix="opmig-bench-")
    scratch = os.path.join(work, "caches")
    os.makedirs(scratch)
    figs = []
    started = time.perf_counter()
    try:
        cases = []
        if "generated" in wanted:
            tree = os.path.realpath(os.path.join(work, "tree"))
            entry, info = generate_tree(tree, args.tus)
            print(f"generated tree: {info['tus']} TUs, {info['files']} files, {info['op_dirs']}"
                  f" op directories, {info['ops']} operators; entry {entry}"
                  + (f"; kept at {tree}" if args.keep else ""))
            c = Case("generated", tree, entry, [])
            c.source_label = f"<generated, {info['tus']} TUs>"
            cases.append(c)
        fixtures = {
            "merge_attn_states": ("samples/upstream", "merge_attn_states"),
            "scale": ("tests/fixtures/upstream/multi_op", "scale"),
            "fused_fwd": ("tests/fixtures/upstream/multi_op", "fused_fwd"),
        }
        for name in wanted:
            if name == "generated":
                continue
            if name == "template_axpy_torch":
                # Real torch, found the way a user's is (PYTHONPATH holds the pinned wheel).
                env = dict(os.environ, OPMIG_NO_TORCH="0", PYTHONPATH=args.torch_dir)
                c = Case(name, str(REPO / "tests/fixtures/upstream/template_launch"), "axpy", [],
                         env)
                c.source_label = f"tests/fixtures/upstream/template_launch with torch in {args.torch_dir}"
                cases.append(c)
                continue
            if name not in fixtures:
                sys.exit(f"unknown case {name}")
            rel, entry = fixtures[name]
            c = Case(name, str(REPO / rel), entry, ["-isystem", str(STUBS)])
            c.source_label = rel
            cases.append(c)
        print(f"opmig {os.path.relpath(args.opmig, REPO) if args.opmig.startswith(str(REPO)) else args.opmig}"
              f"; baseline {args.clang}; -j {args.jobs}; repeat {args.repeat};"
              f" gpu arch {args.gpu_arch}; OPMIG_NO_TORCH=1 except for template_axpy_torch")
        for case in cases:
            fig = bench.measure(case, scratch)
            figs.append(fig)
            print_case(fig, args.jobs)
            sys.stdout.flush()
        print_summary(figs)
        print(f"\n(benchmark took {time.perf_counter() - started:.0f} s)")
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"config": {"jobs": args.jobs, "repeat": args.repeat, "tus": args.tus,
                                      "gpu_arch": args.gpu_arch, "clang": args.clang},
                           "targets": {"cold_over_clang": TARGET_COLD_RATIO,
                                       "warm_share": TARGET_WARM_SHARE,
                                       "peak_rss_mib_j1": TARGET_RSS_MIB},
                           "cases": figs}, fh, indent=1)
                fh.write("\n")
    finally:
        if args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
