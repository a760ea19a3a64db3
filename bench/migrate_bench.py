#!/usr/bin/env python3
"""Benchmark `opmig migrate` on top of `opmig analyze`, for a ~20-file and a ~200-file closure.

Writes deterministic upstream trees (a torch extension with one registered entry whose closure
has the asked number of files) into a temporary directory, then times `analyze` and
`migrate --dry-run` (generic profile, a fresh copy of tests/fixtures/targets/generic_like each
time) with an empty cache and with a warm one, and `clang++ -fsyntax-only` over the same TUs.
Nothing here asserts a timing: the targets are printed next to the figures. See
bench/README.md for what each figure means.

Standard library only:  python3 bench/migrate_bench.py [--sizes 20,200] [--repeat 1] [--json FILE]
"""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import (DEFAULT_OPMIG, REPO, STUBS, ClangBaseline, LoadWatch, binary_stamp, fill,
                      inferred_flags, load_note, run_measured)

GENERIC_TARGET = REPO / "tests" / "fixtures" / "targets" / "generic_like"
DOMAIN = "fused"
ENTRY = "fused_pipeline"

# Issue 3: "Migration time on top of analysis for a 20-file closure (target: well under a
# second), and for a generated 200-file closure" (a figure, no target).
TARGET_OVERHEAD_S = {20: 1.0}


# --------------------------------------------------------------------------------------------
# The generated upstream tree
# --------------------------------------------------------------------------------------------
#
# csrc/ is the include root (`"common/x.h"`); some includes are spelled `"../common/x.h"` or
# relative to the including file's folder instead. Closure of the entry `fused_pipeline`:
#   torch_bindings.cpp (TORCH_LIBRARY, a second op), ops.h, fused/fused_pipeline.cu (the host
#   wrapper: checks, allocation, dtype dispatch over float and half, one launcher call per
#   stage), 6 common headers (checks and dispatch macros, conversions with explicit
#   specializations, math, reductions, an accumulator-type trait);
#   per group <g> (namespace fastkern::<g>): <g>_config.h, <g>_utils.{h,cu} (a non-template
#   launch limit), <g>_fp32.cu and <g>_fp16.cu (explicit instantiations of every stage);
#   per stage: <stage>.h (launcher template declaration), <stage>.cuh (kernel and launcher).
# Left behind: other/scale_rows.cu (the second op), <g>_bf16.cu (a dtype the dispatch never
# reaches) and <g>_legacy.cu (unrelated kernels) in even-numbered groups, README.md, tests/.
# Files in the closure: 9 + 5 * groups + 2 * stages, plus common/stream.h (used by the wrapper)
# when that makes the size odd.

GROUPS = ["norm", "act", "attn", "rope", "quant", "moe", "pool", "scan", "embed", "loss",
          "topk", "gather", "scatter", "conv", "mamba", "lora"]
VERBS = ["fwd", "scale", "fused", "residual", "masked", "gated", "shifted", "clamped", "mixed",
         "blend", "inplace", "strided"]
KINDS = ["elementwise", "rownorm", "rowsoftmax"]
ACTIVATIONS = ["silu(x)", "gelu_tanh(x)", "fmaxf(x, 0.f)", "x"]
DTYPES = [("fp32", "float", "float32"), ("fp16", "__half", "float16"),
          ("bf16", "__nv_bfloat16", "bfloat16")]

COMMON_FILES = {
    "common/checks.h": """\
// Input checks shared by the host wrappers.
#pragma once

#include <ATen/ATen.h>

#define FK_CHECK_CUDA(x) TORCH_CHECK((x).is_cuda(), #x " must be a CUDA tensor")
#define FK_CHECK_CONTIGUOUS(x) TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")
#define FK_CHECK_INPUT(x)                                                      \\
  FK_CHECK_CUDA(x);                                                            \\
  FK_CHECK_CONTIGUOUS(x)
#define FK_CUDA_CHECK(expr)                                                    \\
  do {                                                                         \\
    const cudaError_t fk_err = (expr);                                         \\
    TORCH_CHECK(fk_err == cudaSuccess, cudaGetErrorString(fk_err));            \\
  } while (false)
""",
    "common/dispatch.h": """\
// Runs a lambda with `scalar_t` bound to the CUDA type of a tensor's dtype (float, half).
#pragma once

#include <cuda_fp16.h>

#include <ATen/ATen.h>

#define FK_DISPATCH_CASE(ENUM, TYPE, ...)                                      \\
  case ENUM: {                                                                 \\
    using scalar_t = TYPE;                                                     \\
    __VA_ARGS__();                                                             \\
    break;                                                                     \\
  }

#define FK_DISPATCH_FLOAT_TYPES(DTYPE, NAME, ...)                              \\
  [&] {                                                                        \\
    switch (DTYPE) {                                                           \\
      FK_DISPATCH_CASE(at::ScalarType::Float, float, __VA_ARGS__)              \\
      FK_DISPATCH_CASE(at::ScalarType::Half, __half, __VA_ARGS__)              \\
    default:                                                                   \\
      TORCH_CHECK(false, NAME, ": expected float32 or float16");               \\
    }                                                                          \\
  }()
""",
    "common/type_convert.cuh": """\
// float <-> element type conversions used inside the kernels.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace fastkern {

template <typename T> __device__ __forceinline__ float to_float(T v) {
  return static_cast<float>(v);
}
template <> __device__ __forceinline__ float to_float<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float to_float<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162float(v);
}

template <typename T> __device__ __forceinline__ T from_float(float v) {
  return static_cast<T>(v);
}
template <> __device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half(v);
}
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16(v);
}

} // namespace fastkern
""",
    "common/math.cuh": """\
// Scalar math shared by the kernels and the launchers.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace fastkern {

__host__ __device__ constexpr int64_t div_up(int64_t a, int64_t b) { return (a + b - 1) / b; }

__host__ __device__ constexpr int64_t min_i64(int64_t a, int64_t b) { return a < b ? a : b; }

__device__ __forceinline__ float silu(float x) { return x / (1.f + __expf(-x)); }

__device__ __forceinline__ float gelu_tanh(float x) {
  constexpr float kAlpha = 0.7978845608f;
  constexpr float kBeta = 0.044715f;
  return 0.5f * x * (1.f + tanhf(kAlpha * (x + kBeta * x * x * x)));
}

} // namespace fastkern
""",
    "common/reduce.cuh": """\
// Warp- and block-level reductions.
#pragma once

#include <cuda_runtime.h>

namespace fastkern {
namespace detail {

template <typename T> __device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

template <typename T> __device__ __forceinline__ T warp_max(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T other = __shfl_xor_sync(0xffffffffu, v, offset);
    v = other > v ? other : v;
  }
  return v;
}

} // namespace detail

template <typename T, int kBlock> __device__ T block_reduce_sum(T v) {
  static_assert(kBlock % 32 == 0, "whole warps only");
  __shared__ T partial[kBlock / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = detail::warp_sum(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < kBlock / 32 ? partial[lane] : T(0);
  return warp == 0 ? detail::warp_sum(v) : v;
}

template <typename T, int kBlock> __device__ T block_reduce_max(T v) {
  static_assert(kBlock % 32 == 0, "whole warps only");
  __shared__ T partial[kBlock / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = detail::warp_max(v);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < kBlock / 32 ? partial[lane] : partial[0];
  return warp == 0 ? detail::warp_max(v) : v;
}

} // namespace fastkern
""",
    "common/acc_type.cuh": """\
// The type a kernel accumulates an element type in.
#pragma once

namespace fastkern {

template <typename T> struct AccType {
  using type = float;
};
template <> struct AccType<double> {
  using type = double;
};

template <typename T> using acc_t = typename AccType<T>::type;

} // namespace fastkern
""",
}

GROUP_CONFIG = """\
// Launch constants of the @G@ stages.
#pragma once

namespace fastkern::@G@ {

constexpr int kThreads = @THREADS@;
constexpr float kEps = 1e-6f;

} // namespace fastkern::@G@
"""

GROUP_UTILS_H = """\
// Launch limit of the @G@ stages; defined in @G@_utils.cu.
#pragma once

#include <cstdint>

namespace fastkern {
namespace @G@ {

int max_blocks(int64_t rows, int cols);

} // namespace @G@
} // namespace fastkern
"""

GROUP_UTILS_CU_HEAD = """\
// Launch limit of the @G@ stages, from the current device.
#include <cuda_runtime.h>

#include "@G@/@G@_config.h"
#include "@G@/@G@_utils.h"
#include "@COMMON@/math.cuh"

namespace {

int sm_count() {
  static int cached = 0;
  if (cached == 0) {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&cached, cudaDevAttrMultiProcessorCount, device);
  }
  return cached;
}

} // namespace

"""

# Even groups define the function inside the namespace, odd ones out of line.
GROUP_UTILS_CU_BODY = {
    0: """\
namespace fastkern::@G@ {

int max_blocks(int64_t rows, int cols) {
  const int64_t wanted = div_up(rows * static_cast<int64_t>(cols), kThreads);
  return static_cast<int>(min_i64(wanted > 0 ? wanted : 1, int64_t{sm_count()} * @WAVES@));
}

} // namespace fastkern::@G@
""",
    1: """\
int fastkern::@G@::max_blocks(int64_t rows, int cols) {
  const int64_t wanted = fastkern::div_up(rows * static_cast<int64_t>(cols), kThreads);
  return static_cast<int>(
      fastkern::min_i64(wanted > 0 ? wanted : 1, int64_t{sm_count()} * @WAVES@));
}
""",
}

GROUP_LEGACY_CU = """\
// Old @G@ helpers from before the fused pipeline; nothing registered calls them.
#include <cstdint>
#include <cuda_runtime.h>

#include "common/type_convert.cuh"

namespace fastkern::@G@ {

__global__ void legacy_fill_kernel(float *p, int64_t n, float value) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = value;
}

void legacy_fill(float *p, int64_t n, float value, cudaStream_t stream) {
  legacy_fill_kernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(p, n, value);
}

} // namespace fastkern::@G@
"""

STAGE_H = """\
// Launcher of the @S@ stage; instantiated per dtype in @G@_{fp32,fp16}.cu.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

namespace fastkern::@G@ {

template <typename T>
void launch_@S@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
    cudaStream_t stream);

} // namespace fastkern::@G@
"""

STAGE_CUH_HEAD = """\
// Kernel and launcher of the @S@ stage; included by the @G@ instantiation TUs.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "@COMMON@/acc_type.cuh"
#include "@COMMON@/math.cuh"
#include "@COMMON@/reduce.cuh"
#include "@COMMON@/type_convert.cuh"
#include "@G@_config.h"
#include "@S@.h"

namespace fastkern {
namespace @G@ {

"""

STAGE_CUH_TAIL = """
} // namespace @G@
} // namespace fastkern
"""

STAGE_BODIES = {
    "elementwise": """\
template <typename T>
__global__ void @S@_kernel(const T *__restrict__ in, T *__restrict__ out, int64_t n, float alpha) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const acc_t<T> x = to_float(in[i]);
    out[i] = from_float<T>(@ACT@ * alpha);
  }
}

template <typename T>
void launch_@S@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
    cudaStream_t stream) {
  const int64_t n = rows * cols;
  const int64_t blocks = min_i64(div_up(n, kThreads), max_blocks);
  @S@_kernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, out, n, alpha);
}
""",
    "rownorm": """\
template <typename T>
__global__ void @S@_kernel(const T *__restrict__ in, T *__restrict__ out, int cols, float alpha) {
  const T *x = in + static_cast<int64_t>(blockIdx.x) * cols;
  T *y = out + static_cast<int64_t>(blockIdx.x) * cols;
  acc_t<T> acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads) {
    const acc_t<T> v = to_float(x[c]);
    acc += v * v;
  }
  acc = block_reduce_sum<acc_t<T>, kThreads>(acc);
  __shared__ float inv_rms;
  if (threadIdx.x == 0)
    inv_rms = rsqrtf(acc / cols + kEps);
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += kThreads)
    y[c] = from_float<T>(to_float(x[c]) * inv_rms * alpha);
}

template <typename T>
void launch_@S@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
    cudaStream_t stream) {
  (void)max_blocks; // one block per row
  @S@_kernel<T><<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(in, out, cols, alpha);
}
""",
    "rowsoftmax": """\
template <typename T>
__global__ void @S@_kernel(const T *__restrict__ in, T *__restrict__ out, int cols, float scale) {
  const T *x = in + static_cast<int64_t>(blockIdx.x) * cols;
  T *y = out + static_cast<int64_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads)
    m = fmaxf(m, to_float(x[c]) * scale);
  m = block_reduce_max<float, kThreads>(m);
  __shared__ float row_max, row_sum;
  if (threadIdx.x == 0)
    row_max = m;
  __syncthreads();
  acc_t<T> s = 0.f;
  for (int c = threadIdx.x; c < cols; c += kThreads)
    s += __expf(to_float(x[c]) * scale - row_max);
  s = block_reduce_sum<acc_t<T>, kThreads>(s);
  if (threadIdx.x == 0)
    row_sum = s;
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += kThreads)
    y[c] = from_float<T>(__expf(to_float(x[c]) * scale - row_max) / row_sum);
}

template <typename T>
void launch_@S@(const T *in, T *out, int64_t rows, int cols, float alpha, int max_blocks,
    cudaStream_t stream) {
  (void)max_blocks; // one block per row
  @S@_kernel<T><<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(in, out, cols, alpha);
}
""",
}

INSTANTIATION_HEAD = """\
// @DTNAME@ instantiations of the @G@ stages.
"""

# Even groups instantiate with qualified names at global scope, odd ones inside the namespace.
INSTANTIATION_QUALIFIED = """\
template void fastkern::@G@::launch_@S@<@T@>(const @T@ *, @T@ *, int64_t, int, float, int,
    cudaStream_t);
"""
INSTANTIATION_IN_NAMESPACE = """\
template void launch_@S@<@T@>(const @T@ *, @T@ *, int64_t, int, float, int, cudaStream_t);
"""

WRAPPER_HEAD = """\
// Host wrapper of fused_pipeline: checks, allocation, dtype dispatch, then every stage in order.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cstdint>
#include <cuda_runtime.h>
#include <utility>

#include "../common/checks.h"
#include "common/dispatch.h"
#include "ops.h"
"""

WRAPPER_BODY_HEAD = """
namespace fk = fastkern;

at::Tensor fused_pipeline(const at::Tensor &x, double alpha) {
  FK_CHECK_INPUT(x);
  TORCH_CHECK(x.dim() == 2, "fused_pipeline: x must be [rows, cols]");
  TORCH_CHECK(x.size(1) % 4 == 0, "fused_pipeline: cols must be a multiple of 4");
  const int64_t rows = x.size(0);
  const int cols = static_cast<int>(x.size(1));
  const c10::cuda::CUDAGuard guard(x.device());
  at::Tensor out = at::empty_like(x);
  if (rows == 0)
    return out;
  at::Tensor scratch = at::empty_like(x);
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  const float a = static_cast<float>(alpha);
"""

WRAPPER_DISPATCH_HEAD = """\
  FK_DISPATCH_FLOAT_TYPES(x.scalar_type(), "fused_pipeline", [&] {
    const scalar_t *src = reinterpret_cast<const scalar_t *>(x.data_ptr());
    scalar_t *dst = reinterpret_cast<scalar_t *>(out.data_ptr());
    scalar_t *spare = reinterpret_cast<scalar_t *>(scratch.data_ptr());
"""

WRAPPER_STAGE_CALL = """\
    fastkern::@G@::launch_@S@<scalar_t>(src, dst, rows, cols, a, blocks_@G@, stream);
    src = dst;
    std::swap(dst, spare);
"""

WRAPPER_TAIL = """\
    if (src != reinterpret_cast<const scalar_t *>(out.data_ptr()))
      FK_CUDA_CHECK(cudaMemcpyAsync(out.data_ptr(), src, x.numel() * sizeof(scalar_t),
                                    cudaMemcpyDeviceToDevice, stream));
  });
  FK_CUDA_CHECK(cudaGetLastError());
  return out;
}
"""

STREAM_H = """\
// The stream the host wrappers launch on.
#pragma once

#include <c10/cuda/CUDAStream.h>

namespace fastkern {

inline cudaStream_t current_stream() { return c10::cuda::getCurrentCUDAStream(); }

} // namespace fastkern
"""

OPS_H = """\
// Host entry points of the fastkern library, registered in torch_bindings.cpp.
#pragma once

#include <ATen/ATen.h>

// Runs every stage of the fused pipeline over x ([rows, cols], cols a multiple of 4).
at::Tensor fused_pipeline(const at::Tensor &x, double alpha);

// x * s, elementwise; an older op that the pipeline does not use.
at::Tensor scale_rows(const at::Tensor &x, double s);
"""

BINDINGS_CPP = """\
// Registers the fastkern operators with the PyTorch dispatcher.
#include <torch/library.h>

#include "ops.h"

TORCH_LIBRARY(fastkern_ops, m) {
  m.def("fused_pipeline(Tensor x, float alpha) -> Tensor");
  m.def("scale_rows(Tensor x, float s) -> Tensor");
}

TORCH_LIBRARY_IMPL(fastkern_ops, CUDA, m) {
  m.impl("fused_pipeline", &fused_pipeline);
  m.impl("scale_rows", &scale_rows);
}
"""

SCALE_ROWS_CU = """\
// scale_rows: the library's older op, registered next to fused_pipeline.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "common/checks.h"
#include "common/dispatch.h"
#include "common/type_convert.cuh"
#include "ops.h"

namespace fastkern {

template <typename T> __global__ void scale_kernel(const T *in, T *out, int64_t n, float s) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = from_float<T>(to_float(in[i]) * s);
}

} // namespace fastkern

at::Tensor scale_rows(const at::Tensor &x, double s) {
  FK_CHECK_INPUT(x);
  const c10::cuda::CUDAGuard guard(x.device());
  at::Tensor out = at::empty_like(x);
  const int64_t n = x.numel();
  if (n == 0)
    return out;
  cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  FK_DISPATCH_FLOAT_TYPES(x.scalar_type(), "scale_rows", [&] {
    fastkern::scale_kernel<scalar_t><<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(
        reinterpret_cast<const scalar_t *>(x.data_ptr()),
        reinterpret_cast<scalar_t *>(out.data_ptr()), n, static_cast<float>(s));
  });
  return out;
}
"""

README_MD = """\
# fastkern (generated by opmig's bench/migrate_bench.py)

A torch extension of @STAGES@ fused stages in @GROUPS@ groups; entry `fused_pipeline`.
"""

TEST_PY = """\
import torch


def test_fused_pipeline_shape():
    x = torch.randn(4, 64, device="cuda")
    assert torch.ops.fastkern_ops.fused_pipeline(x, 1.0).shape == x.shape
"""


def closure_shape(n_files):
    """(groups, stages, stream header) whose closure has exactly n_files files.

    The closure has 9 + stream + 5 * groups + 2 * stages files; the optional stream header
    (0 or 1 file) makes any size reachable."""
    if n_files < 16:
        raise SystemExit(f"a closure of {n_files} files is too small: at least 16")
    groups = max(1, min(len(GROUPS), round(n_files / 28)))
    stream = (n_files - 9 - 5 * groups) % 2
    stages = (n_files - 9 - stream - 5 * groups) // 2
    if stages < groups or stages > groups * len(VERBS) * 4:
        raise SystemExit(f"no tree shape gives a closure of {n_files} files")
    return groups, stages, stream


def _common(spell_relative):
    """How a stage header spells the common folder: from its own folder or from the root."""
    return "../common" if spell_relative else "common"


def generate_tree(root, n_files):
    """Writes the upstream tree for a closure of n_files files under root; returns info."""
    n_groups, n_stages, stream_header = closure_shape(n_files)
    groups = GROUPS[:n_groups]
    stages = {g: [] for g in groups}            # group -> [(stage, kind, activation)]
    for i in range(n_stages):
        g = groups[i % n_groups]
        k = len(stages[g])
        name = f"{g}_{VERBS[k % len(VERBS)]}" + (str(k // len(VERBS)) if k >= len(VERBS) else "")
        stages[g].append((name, KINDS[(i // n_groups + k) % len(KINDS)],
                          ACTIVATIONS[i % len(ACTIVATIONS)]))

    files = dict(COMMON_FILES)
    wrapper_includes, blocks, calls = [], [], []
    serial = 0                                  # alternates the include spellings
    for gi, g in enumerate(groups):
        files[f"{g}/{g}_config.h"] = fill(GROUP_CONFIG, G=g, THREADS=str(128 << (gi % 2)))
        files[f"{g}/{g}_utils.h"] = fill(GROUP_UTILS_H, G=g)
        files[f"{g}/{g}_utils.cu"] = (fill(GROUP_UTILS_CU_HEAD, G=g, COMMON=_common(gi % 2)) +
                                      fill(GROUP_UTILS_CU_BODY[gi % 2], G=g,
                                           WAVES=str(2 + gi % 3)))
        if gi % 2 == 0:
            files[f"{g}/{g}_legacy.cu"] = fill(GROUP_LEGACY_CU, G=g)
        wrapper_includes.append(f'"{"../" if gi % 2 else ""}{g}/{g}_utils.h"')
        blocks.append(f"  const int blocks_{g} = fk::{g}::max_blocks(rows, cols);\n")
        for s, kind, act in stages[g]:
            files[f"{g}/{s}.h"] = fill(STAGE_H, G=g, S=s)
            files[f"{g}/{s}.cuh"] = (fill(STAGE_CUH_HEAD, G=g, S=s, COMMON=_common(serial % 2)) +
                                     fill(STAGE_BODIES[kind], S=s, ACT=act) +
                                     fill(STAGE_CUH_TAIL, G=g))
            wrapper_includes.append(f'"{"../" if serial % 3 == 1 else ""}{g}/{s}.h"')
            calls.append(fill(WRAPPER_STAGE_CALL, G=g, S=s))
            serial += 1
        for tag, ctype, dtname in DTYPES:
            if tag == "bf16" and gi % 2:
                continue
            text = fill(INSTANTIATION_HEAD, DTNAME=dtname, G=g)
            # Stage kernels from the TU's own folder and from the include root, alternately.
            text += "".join(f'#include "{g + "/" if k % 2 else ""}{s}.cuh"\n'
                            for k, (s, _, _) in enumerate(stages[g]))
            text += "\n"
            if gi % 2 == 0:
                text += "".join(fill(INSTANTIATION_QUALIFIED, G=g, S=s, T=ctype)
                                for s, _, _ in stages[g])
            else:
                text += (f"namespace fastkern::{g} {{\n\n" +
                         "".join(fill(INSTANTIATION_IN_NAMESPACE, S=s, T=ctype)
                                 for s, _, _ in stages[g]) +
                         f"\n}} // namespace fastkern::{g}\n")
            files[f"{g}/{g}_{tag}.cu"] = text

    body = WRAPPER_BODY_HEAD
    if stream_header:
        files["common/stream.h"] = STREAM_H
        wrapper_includes.append('"common/stream.h"')
        body = body.replace("c10::cuda::getCurrentCUDAStream()", "fastkern::current_stream()")
    files["fused/fused_pipeline.cu"] = (
        WRAPPER_HEAD + "".join(f"#include {inc}\n" for inc in sorted(wrapper_includes)) +
        body + "".join(blocks) + WRAPPER_DISPATCH_HEAD + "".join(calls) + WRAPPER_TAIL)
    files["ops.h"] = OPS_H
    files["torch_bindings.cpp"] = BINDINGS_CPP
    files["other/scale_rows.cu"] = SCALE_ROWS_CU

    for rel, text in files.items():
        _write(os.path.join(root, "csrc", rel), text)
    _write(os.path.join(root, "README.md"),
           fill(README_MD, STAGES=str(n_stages), GROUPS=str(n_groups)))
    _write(os.path.join(root, "tests", "test_ops.py"), TEST_PY)
    behind = [rel for rel in files if rel.endswith(("_bf16.cu", "_legacy.cu", "scale_rows.cu"))]
    return {"groups": n_groups, "stages": n_stages, "files": len(files),
            "tus": sum(1 for rel in files if rel.endswith((".cu", ".cpp"))),
            "expected_closure": len(files) - len(behind)}


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def commit_tree(root):
    """Makes the tree a git repository with one commit, so the provenance probe finds one.

    Fixed names and dates keep the commit id the same on every run. Returns the commit, or
    None without git (migrate then records the tree as unversioned)."""
    if not shutil.which("git"):
        return None
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid",
               GIT_AUTHOR_DATE="2024-06-11T00:00:00Z", GIT_COMMITTER_DATE="2024-06-11T00:00:00Z",
               GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    for argv in (["init", "-q", "-b", "main"],
                 ["remote", "add", "origin", "https://example.invalid/fastkern.git"],
                 ["add", "-A"], ["commit", "-q", "-m", "fastkern"]):
        subprocess.run(["git"] + argv, cwd=root, env=env, check=True, capture_output=True)
    res = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, env=env, check=True,
                         capture_output=True, text=True)
    return res.stdout.strip()


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------

class Case:
    def __init__(self, n_files, source, info):
        self.name = f"closure{n_files}"
        self.n_files, self.source, self.info = n_files, source, info
        self.extra = ["-isystem", str(STUBS)]


class MigrateFailure(Exception):
    def __init__(self, argv, run, why):
        super().__init__(why)
        self.argv, self.run, self.why = argv, run, why


class Bench:
    def __init__(self, args, work):
        self.args, self.work = args, work
        self.env = dict(os.environ, OPMIG_NO_TORCH="1")
        self.cuda = os.path.abspath(args.cuda_path or os.environ.get("CUDA_HOME") or
                                    "/usr/local/cuda")
        self.clang = ClangBaseline(args.clang, self.cuda, args.gpu_arch)
        self.targets = 0

    def common(self, case, cache_dir):
        argv = ["--source", case.source, "--entry", ENTRY, "-j", str(self.args.jobs),
                "--cuda-path", self.cuda, "--gpu-arch", self.args.gpu_arch, "-q"]
        return argv + (["--cache-dir", cache_dir] if cache_dir else ["--no-cache"])

    def analyze(self, case, cache_dir, text_verbose=False):
        argv = [self.args.opmig, "analyze"] + self.common(case, cache_dir)
        argv += ["--format", "text", "-v"] if text_verbose else ["--format", "json"]
        run = run_measured(argv + ["--"] + case.extra, env=self.env)
        if text_verbose:
            return run, None
        try:
            return run, json.loads(run.out)
        except ValueError:
            sys.exit(f"opmig analyze failed on {case.name} (rc {run.rc}):\n"
                     f"$ {shlex.join(argv + ['--'] + case.extra)}\n{run.err[-4000:]}")

    def fresh_target(self):
        """A new copy of the generic_like target (not timed)."""
        self.targets += 1
        path = os.path.join(self.work, "targets", f"target-{self.targets}")
        shutil.copytree(GENERIC_TARGET, path)
        return path

    def migrate(self, case, cache_dir):
        target = self.fresh_target()
        argv = ([self.args.opmig, "migrate"] + self.common(case, cache_dir) +
                ["--target", target, "--domain", DOMAIN, "--profile", "generic", "--dry-run",
                 # What is measured is the port; nvcc's compile check is not.
                 "--no-compile-check", "--format", "json", "--"] + case.extra)
        run = run_measured(argv, env=self.env)
        shutil.rmtree(target, ignore_errors=True)
        try:
            result = json.loads(run.out)
        except ValueError:
            raise MigrateFailure(argv, run, f"no JSON on stdout (rc {run.rc})")
        if run.rc != 0 or result.get("outcome") != "dry-run":
            raise MigrateFailure(argv, run, f"rc {run.rc}, outcome {result.get('outcome')}")
        return run, result

    def measure(self, case):
        args = self.args
        stamp = binary_stamp(args.opmig)
        watch = LoadWatch()
        an_cold, an_warm, mi_cold, mi_warm, bases = [], [], [], [], []
        first = migrated = inferred = None
        failure = None
        for rep in range(args.repeat):
            run, first = self.analyze(case, None)
            an_cold.append(run)
            if failure is None:
                try:
                    run, migrated = self.migrate(case, None)
                    mi_cold.append(run)
                except MigrateFailure as e:
                    failure = e
            cache = tempfile.mkdtemp(prefix=f"cache-{case.name}-{rep}-", dir=self.work)
            self.analyze(case, cache)                   # fills the cache
            run, warm = self.analyze(case, cache)
            an_warm.append(run)
            if failure is None:
                try:
                    run, _ = self.migrate(case, cache)
                    mi_warm.append(run)
                except MigrateFailure as e:
                    failure = e
            if inferred is None:
                text, _ = self.analyze(case, cache, text_verbose=True)
                inferred = inferred_flags(text.out)
            shutil.rmtree(cache, ignore_errors=True)
            jobs_argv = self.clang.jobs(case.source, first["stats"]["parsed"], inferred,
                                        case.extra)
            bases.append(self.clang.run(case.source, jobs_argv, args.jobs))

        med = statistics.median
        st = first["stats"]
        fig = {
            "case": case.name,
            "generated": case.info,
            "entry": ENTRY,
            "closure_files": len(first["files"]),
            "tus_parsed": st["tus_parsed"],
            "tus_in_tree": st["tus_in_tree"],
            "parses_run_cold": st["parses_run"],
            "parses_run_warm": warm["stats"]["parses_run"],
            "partial": first["partial"],
            "analyze_cold_s": med(r.wall for r in an_cold),
            "analyze_cold_runs_s": [r.wall for r in an_cold],
            "analyze_cold_cpu_s": med(r.cpu for r in an_cold),
            "analyze_warm_s": med(r.wall for r in an_warm),
            "analyze_warm_runs_s": [r.wall for r in an_warm],
            "analyze_warm_cpu_s": med(r.cpu for r in an_warm),
            "clang_parallel_s": med(b["wall"] for b in bases),
            "clang_serial_sum_s": med(b["serial_sum"] for b in bases),
            "clang_cpu_s": med(b["cpu"] for b in bases),
            "clang_failed_parses": max(b["failed"] for b in bases),
            "inferred_flags": [f.replace(case.source, "<source>") for f in inferred],
            "case_wall_s": watch.elapsed(),
            "other_cpu_s": watch.other_cpu(),
            "opmig_binary_changed": binary_stamp(args.opmig) != stamp,
        }
        if bases[0]["failed"]:
            fig["clang_first_error"] = bases[0]["first_error"]
        if failure is not None:
            fig["migrate_failed"] = {"command": shlex.join(failure.argv), "why": failure.why,
                                     "stdout": failure.run.out[-6000:],
                                     "stderr": failure.run.err[-6000:]}
            return fig
        changes = migrated["changes"]
        fig.update({
            "files_migrated": sum(1 for c in changes if c["kind"] == "migrated"),
            "files_generated": sum(1 for c in changes if c["kind"] != "migrated"),
            "replacements": sum(c.get("replacements", 0) for c in changes),
            "dropped_definitions": sum(len(c.get("dropped_definitions", [])) for c in changes),
            "regenerated": migrated.get("regenerated", []),
            "issues": migrated.get("issues", []),
            "migrate_cold_s": med(r.wall for r in mi_cold),
            "migrate_cold_runs_s": [r.wall for r in mi_cold],
            "migrate_cold_cpu_s": med(r.cpu for r in mi_cold),
            "migrate_warm_s": med(r.wall for r in mi_warm),
            "migrate_warm_runs_s": [r.wall for r in mi_warm],
            "migrate_warm_cpu_s": med(r.cpu for r in mi_warm),
        })
        for state in ("cold", "warm"):
            fig[f"overhead_{state}_s"] = fig[f"migrate_{state}_s"] - fig[f"analyze_{state}_s"]
            fig[f"overhead_{state}_cpu_s"] = (fig[f"migrate_{state}_cpu_s"] -
                                              fig[f"analyze_{state}_cpu_s"])
            fig[f"overhead_{state}_over_clang"] = (fig[f"overhead_{state}_s"] /
                                                   fig["clang_parallel_s"])
        fig["migrate_cold_over_clang"] = fig["migrate_cold_s"] / fig["clang_parallel_s"]
        return fig


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------

def _n(count, noun):
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _target_text(f, key):
    target = TARGET_OVERHEAD_S.get(f["generated"]["requested_closure"])
    if target is None:
        return "no target"
    ok = f[key] < target
    return f"target well under {target:g} s: {'meets target' if ok else 'MISSES target'}"


def print_case(f, jobs):
    g = f["generated"]
    print(f"\n== {f['case']}: generated tree, {_n(g['groups'], 'group')},"
          f" {_n(g['stages'], 'stage')}, {g['tus']} TUs / {g['files']} files;"
          f" --entry {f['entry']}")
    print(f"  closure                    {f['closure_files']} files ({f['tus_parsed']} of"
          f" {f['tus_in_tree']} TUs parsed, {f['parses_run_cold']} parses)")
    print(f"  analyze       cold {f['analyze_cold_s']:8.2f} s   warm {f['analyze_warm_s']:8.3f} s"
          f"   (CPU {f['analyze_cold_cpu_s']:.1f} s / {f['analyze_warm_cpu_s']:.2f} s;"
          f" {f['parses_run_warm']} parses run warm)")
    print(f"  clang -fsyntax-only -j{jobs}  {f['clang_parallel_s']:7.2f} s   (same TUs and sides;"
          f" serial sum {f['clang_serial_sum_s']:.2f} s; CPU {f['clang_cpu_s']:.1f} s;"
          f" {f['clang_failed_parses']} failed)")
    notes = []
    if "migrate_failed" in f:
        m = f["migrate_failed"]
        print(f"  migrate       FAILED: {m['why']}")
        print(f"    $ {m['command']}")
        for line in (m["stderr"].strip() or m["stdout"].strip()).splitlines()[-15:]:
            print(f"    | {line}")
    else:
        print(f"  migrate       cold {f['migrate_cold_s']:8.2f} s   warm {f['migrate_warm_s']:8.3f} s"
              f"   (CPU {f['migrate_cold_cpu_s']:.1f} s / {f['migrate_warm_cpu_s']:.2f} s;"
              f" {f['files_migrated']} files migrated, {f['files_generated']} generated,"
              f" {f['replacements']} rewrites, {f['dropped_definitions']} definitions dropped)")
        for state, how in (("cold", "no cache"), ("warm", "cached  ")):
            print(f"  overhead {state} (migrate - analyze, {how})"
                  f"  {f[f'overhead_{state}_s']:7.3f} s = {f[f'overhead_{state}_over_clang']:.2f}"
                  f" x clang; CPU {f[f'overhead_{state}_cpu_s']:+.2f} s"
                  f"   ({_target_text(f, f'overhead_{state}_s')})")
        print(f"  migrate cold / clang       {f['migrate_cold_over_clang']:.2f}")
        if f["issues"]:
            notes.append(f"{len(f['issues'])} rewrite issues, first: {f['issues'][0]}")
        if f["files_migrated"] + len(f["regenerated"]) != f["closure_files"]:
            notes.append(f"{f['files_migrated']} files migrated + {len(f['regenerated'])}"
                         f" regenerated != {f['closure_files']} in the closure")
    if f["closure_files"] != g["expected_closure"]:
        notes.append(f"the generator meant a closure of {g['expected_closure']} files")
    if f["opmig_binary_changed"]:
        notes.append("the opmig binary was rebuilt during this case: its figures are not valid")
    load = load_note(f["other_cpu_s"], f["case_wall_s"])
    if load:
        notes.append(load)
    if f["partial"]:
        notes.append("the analysis was partial")
    if f["parses_run_warm"]:
        notes.append("warm analyze re-parsed TUs")
    if f.get("clang_first_error"):
        notes.append("a clang parse failed: " + f["clang_first_error"].strip().splitlines()[-1])
    for n in notes:
        print(f"  note: {n}")


def print_summary(figs):
    print("\n== summary (seconds; overhead = migrate - analyze with the same cache state)")
    print(f"  {'case':<11}{'closure':>8}{'migrated':>9}{'clang':>8}{'analyze':>9}{'migrate':>9}"
          f"{'overhead':>9}{'/clang':>7}{'warm an.':>9}{'warm mi.':>9}{'overhead':>9}  target")
    for f in figs:
        target = TARGET_OVERHEAD_S.get(f["generated"]["requested_closure"])
        target_text = f"< {target:g} s" if target else "-"
        if "migrate_failed" in f:
            print(f"  {f['case']:<11}{f['closure_files']:>8}{'FAILED':>9}"
                  f"{f['clang_parallel_s']:>8.2f}{f['analyze_cold_s']:>9.2f}{'-':>9}{'-':>9}"
                  f"{'-':>7}{f['analyze_warm_s']:>9.3f}{'-':>9}{'-':>9}  {target_text}")
            continue
        print(f"  {f['case']:<11}{f['closure_files']:>8}{f['files_migrated']:>9}"
              f"{f['clang_parallel_s']:>8.2f}{f['analyze_cold_s']:>9.2f}{f['migrate_cold_s']:>9.2f}"
              f"{f['overhead_cold_s']:>9.3f}{f['overhead_cold_over_clang']:>7.2f}"
              f"{f['analyze_warm_s']:>9.3f}{f['migrate_warm_s']:>9.3f}{f['overhead_warm_s']:>9.3f}"
              f"  {target_text}")
    print("  target (issue 3): migration on top of analysis well under a second for a 20-file"
          " closure; the 200-file figure is reported without a target")


# --------------------------------------------------------------------------------------------
# The real-torch case (issue 14: "migrate / analyze: cold <= 1.1, warm re-run of an unchanged
# migration <= 5% of the cold analysis")
# --------------------------------------------------------------------------------------------

TARGET_TORCH_COLD_RATIO = 1.1   # migrate cold / analyze cold
TARGET_TORCH_WARM_SHARE = 0.05  # warm re-run of an unchanged migration / analyze cold


def torch_case(args, work):
    """migrate against analyze on preamble_bench's generated tree (real torch headers).

    Each figure is a ratio of runs measured in this call: analyze cold (empty cache), migrate cold
    (another empty cache), the same migration again into a fresh target (warm: nothing changed),
    and analyze on that warm cache."""
    from preamble_bench import generate_tree as torch_tree

    torch_dir = os.path.expanduser(
        "~/.cache/opmig/torch-" + (REPO / "scripts/torch-version").read_text().strip() + "-full")
    if not os.path.isdir(os.path.join(torch_dir, "torch", "include")):
        sys.exit(f"no torch in {torch_dir} (scripts/install-deps.sh installs it)")
    cuda = os.path.abspath(args.cuda_path or os.environ.get("CUDA_HOME") or "/usr/local/cuda")
    env = dict(os.environ, OPMIG_NO_TORCH="0", PYTHONPATH=torch_dir)
    tree = os.path.join(work, "torch-tree")
    torch_tree(tree, args.torch_tus)
    common = ["--source", tree, "--entry", "pipeline", "-j", str(args.jobs), "--cuda-path", cuda,
              "--gpu-arch", args.gpu_arch, "-q", "--format", "json"]
    targets = [0]

    def analyze(cache):
        run = run_measured([args.opmig, "analyze", *common, "--cache-dir", cache], env=env)
        return run, json.loads(run.out)["stats"]

    def migrate(cache):
        targets[0] += 1
        target = os.path.join(work, "targets", f"torch-{targets[0]}")
        shutil.copytree(GENERIC_TARGET, target)
        run = run_measured([args.opmig, "migrate", *common, "--cache-dir", cache, "--target",
                            target, "--domain", "tops", "--profile", "generic", "--dry-run",
                            "--no-compile-check"], env=env)
        shutil.rmtree(target, ignore_errors=True)
        try:
            return run, json.loads(run.out)["stats"]
        except (ValueError, KeyError):
            sys.exit(f"opmig migrate failed on the torch tree (rc {run.rc}):\n{run.err[-4000:]}")

    watch = LoadWatch()
    stamp = binary_stamp(args.opmig)
    an_cold, an_stats = analyze(os.path.join(work, "torch-cache-analyze"))
    mi_cold, mi_stats = migrate(os.path.join(work, "torch-cache-migrate"))
    mi_warm, warm_stats = migrate(os.path.join(work, "torch-cache-migrate"))
    an_warm, _ = analyze(os.path.join(work, "torch-cache-migrate"))
    # migrate on the cold analysis' cache: the analysis is all cached (and its preambles are
    # there), so this is what migrate adds on top of it (rewrite and signature parses, the rest).
    mi_over, over_stats = migrate(os.path.join(work, "torch-cache-analyze"))
    fig = {"tus": args.torch_tus + 1, "jobs": args.jobs,
           "analyze_cold_s": an_cold.wall, "analyze_cold_cpu_s": an_cold.cpu,
           "migrate_cold_s": mi_cold.wall, "migrate_cold_cpu_s": mi_cold.cpu,
           "migrate_warm_s": mi_warm.wall, "migrate_warm_cpu_s": mi_warm.cpu,
           "analyze_warm_s": an_warm.wall, "analyze_warm_cpu_s": an_warm.cpu,
           "migrate_over_s": mi_over.wall, "migrate_over_cpu_s": mi_over.cpu,
           "migrate_over_stats": over_stats,
           "analysis_stats": an_stats, "migrate_cold_stats": mi_stats,
           "migrate_warm_stats": warm_stats,
           "other_cpu_s": watch.other_cpu(), "wall_s": watch.elapsed(),
           "opmig_binary_changed": binary_stamp(args.opmig) != stamp}
    for unit, suffix in (("wall", "_s"), ("cpu", "_cpu_s")):
        fig[f"cold_ratio_{unit}"] = fig["migrate_cold" + suffix] / fig["analyze_cold" + suffix]
        fig[f"warm_share_{unit}"] = fig["migrate_warm" + suffix] / fig["analyze_cold" + suffix]
        fig[f"over_share_{unit}"] = fig["migrate_over" + suffix] / fig["analyze_cold" + suffix]
    return fig


def print_torch_case(f):
    print(f"\n== real torch: {f['tus']} TUs including <torch/all.h> and"
          f" <ATen/cuda/CUDAContext.h>, -j {f['jobs']}")
    for name in ("analyze_cold", "migrate_cold", "migrate_warm", "analyze_warm", "migrate_over"):
        print(f"  {name.replace('_', ' '):<13} {f[name + '_s']:8.1f} s wall"
              f"  {f[name + '_cpu_s']:8.1f} s CPU")
    for label, stats in (("migrate cold", f["migrate_cold_stats"]),
                         ("migrate warm", f["migrate_warm_stats"]),
                         ("migrate over", f["migrate_over_stats"])):
        a, r, s = stats["analysis"], stats["rewrite"], stats["signatures"]
        print(f"  {label}: analysis {a['parses_run']} parses run, {a['parses_cached']} cached;"
              f" rewrite {r['parses_run']} run ({r['parses_with_preamble']} with the preamble),"
              f" {r['parses_cached']} cached; signatures {s['parses_run']} run"
              f" ({s.get('parses_with_preamble', 0)} with the preamble),"
              f" {s['parses_cached']} cached")
        for note in r["preambles"]:
            print(f"    rewrite: {note}")
    print(f"  migrate cold / analyze cold        wall {f['cold_ratio_wall']:.2f}"
          f"  CPU {f['cold_ratio_cpu']:.2f}   (target <= {TARGET_TORCH_COLD_RATIO})")
    print(f"  migrate warm re-run / analyze cold wall {100 * f['warm_share_wall']:.1f}%"
          f"  CPU {100 * f['warm_share_cpu']:.1f}%"
          f"   (target <= {100 * TARGET_TORCH_WARM_SHARE:.0f}%)")
    print(f"  migrate on the analysis' cache / analyze cold  wall {100 * f['over_share_wall']:.1f}%"
          f"  CPU {100 * f['over_share_cpu']:.1f}%   (what migrate adds to a cold analysis)")
    load = load_note(f["other_cpu_s"], f["wall_s"])
    if load:
        print(f"  note: {load}")
    if f["opmig_binary_changed"]:
        print("  note: the opmig binary was rebuilt during this case: its figures are not valid")


# --------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opmig", default=str(DEFAULT_OPMIG),
                    help="opmig binary (default: <repo>/build/tools/opmig/opmig)")
    ap.add_argument("--clang", default="clang++-22", help="clang++ for the baseline")
    ap.add_argument("--sizes", default="20,200",
                    help="closure sizes (files) of the generated trees (default 20,200)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of every measurement; medians are reported (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2,
                    help="-j of opmig and the number of concurrent clang processes (default 2)")
    ap.add_argument("--cuda-path", default="",
                    help="CUDA toolkit root (default: $CUDA_HOME, else /usr/local/cuda)")
    ap.add_argument("--gpu-arch", default="sm_90", help="device side parsed (default sm_90)")
    ap.add_argument("--torch-tus", type=int, default=0,
                    help="also run the real-torch case with this many op TUs (plus the entry's;"
                         " preamble_bench.py's tree; needs the pinned torch; default 0: off)")
    ap.add_argument("--keep", action="store_true", help="keep the generated trees")
    ap.add_argument("--json", metavar="FILE", help="also write the figures here as JSON")
    args = ap.parse_args()

    if not (os.path.isfile(args.opmig) and os.access(args.opmig, os.X_OK)):
        sys.exit(f"no opmig binary at {args.opmig} (build it, or wait if it is being rebuilt)")
    if not shutil.which(args.clang):
        sys.exit(f"{args.clang} not found (--clang PATH)")
    if args.repeat < 1 or args.jobs < 1:
        sys.exit("--repeat and --jobs must be at least 1")
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        sys.exit(f"--sizes wants comma-separated numbers, not {args.sizes}")

    work = os.path.realpath(tempfile.mkdtemp(prefix="opmig-migrate-bench-"))
    os.makedirs(os.path.join(work, "targets"))
    bench = Bench(args, work)
    figs = []
    started = time.perf_counter()
    try:
        cases = []
        for n in sizes:
            tree = os.path.join(work, f"upstream{n}")
            info = generate_tree(tree, n)
            info["requested_closure"] = n
            info["commit"] = commit_tree(tree)
            print(f"generated tree for a {n}-file closure: {_n(info['groups'], 'group')},"
                  f" {_n(info['stages'], 'stage')}, {info['tus']} TUs, {info['files']} files"
                  + (f"; kept at {tree}" if args.keep else ""))
            cases.append(Case(n, tree, info))
        opmig = os.path.relpath(args.opmig, REPO) if args.opmig.startswith(str(REPO)) else args.opmig
        print(f"opmig {opmig}; baseline {args.clang}; -j {args.jobs}; repeat {args.repeat};"
              f" gpu arch {args.gpu_arch}; OPMIG_NO_TORCH=1; profile generic, domain {DOMAIN}")
        for case in cases:
            fig = bench.measure(case)
            figs.append(fig)
            print_case(fig, args.jobs)
            sys.stdout.flush()
        if figs:
            print_summary(figs)
        torch_fig = None
        if args.torch_tus > 0:
            torch_fig = torch_case(args, work)
            print_torch_case(torch_fig)
        print(f"\n(benchmark took {time.perf_counter() - started:.0f} s)")
        if args.json:
            with open(args.json, "w") as fh:
                json.dump({"config": {"jobs": args.jobs, "repeat": args.repeat, "sizes": sizes,
                                      "gpu_arch": args.gpu_arch, "clang": args.clang},
                           "targets": {"overhead_s": {str(k): v
                                                      for k, v in TARGET_OVERHEAD_S.items()}},
                           "cases": figs, "torch_case": torch_fig}, fh, indent=1)
                fh.write("\n")
    finally:
        if args.keep:
            for sub in os.listdir(work):
                if not sub.startswith("upstream"):
                    shutil.rmtree(os.path.join(work, sub), ignore_errors=True)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
