#!/usr/bin/env python3
"""Benchmark the shared preamble: `opmig analyze` of a generated torch tree, with and without it.

Generates a tree whose --tus op TUs each start with <torch/all.h> and <ATen/cuda/CUDAContext.h>
(the pinned PyPI torch, found through PYTHONPATH as a user's is), with one entry whose closure is
every op TU, and measures in the same run: the cold analysis with the preamble and without it
(--no-preamble), the warm re-run, `clang++ -fsyntax-only` of the same parses with the same flags
and -j (no PCH), and the peak RSS of each cold run. Prints figures and targets; never fails on a
timing. See bench/README.md.

Standard library only:  python3 bench/preamble_bench.py [--tus 8] [-j 2] [--json FILE]
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

from benchlib import (
    DEFAULT_OPMIG,
    REPO,
    ClangBaseline,
    LoadWatch,
    inferred_flags,
    load_note,
    run_measured,
)

TARGET_COLD_RATIO = 0.5   # issue 14: cold analyze / clang -fsyntax-only
TARGET_WARM_SHARE = 0.02  # issue 14: warm re-run / cold

OP_TU = """\
// Operator {i}: a scaled copy, launched on torch's current stream.
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>

#include "ops.h"

namespace tops {{

__global__ void op{i}_kernel(const float *x, float *y, int64_t n) {{
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = x[i] * {i}.5f;
}}

at::Tensor op{i}(const at::Tensor &x) {{
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kFloat, "op{i}: float CUDA tensor");
  at::Tensor y = at::empty_like(x);
  auto stream = at::cuda::getCurrentCUDAStream();
  int64_t n = x.numel();
  op{i}_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}}

}} // namespace tops
"""

ENTRY_TU = """\
// The entry: every operator in turn.
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>

#include "ops.h"

namespace tops {{

at::Tensor pipeline(const at::Tensor &x) {{
  at::Tensor y = x;
{calls}  return y;
}}

}} // namespace tops

TORCH_LIBRARY(tops, m) {{ m.def("pipeline(Tensor x) -> Tensor", &tops::pipeline); }}
"""


def generate_tree(root, n_ops):
    os.makedirs(os.path.join(root, "csrc"))
    decls = "".join(f"at::Tensor op{i}(const at::Tensor &x);\n" for i in range(n_ops))
    with open(os.path.join(root, "csrc", "ops.h"), "w") as fh:
        fh.write("#pragma once\n\n#include <ATen/ATen.h>\n\nnamespace tops {\n"
                 f"{decls}at::Tensor pipeline(const at::Tensor &x);\n}} // namespace tops\n")
    for i in range(n_ops):
        with open(os.path.join(root, "csrc", f"op{i}.cu"), "w") as fh:
            fh.write(OP_TU.format(i=i))
    calls = "".join(f"  y = op{i}(y);\n" for i in range(n_ops))
    with open(os.path.join(root, "csrc", "pipeline.cu"), "w") as fh:
        fh.write(ENTRY_TU.format(calls=calls))


# --shape w4a4: a real-sized closure shaped like a W4A4 (4-bit weights and activations) GEMM
# extension: 20 TUs. 15 start with the torch includes (12 GEMM variants, 2 quantizers, the entry),
# 2 start with a header of the tree that includes torch (no preamble: their run is the tree's),
# 2 are plain CUDA (<cuda_fp16.h> first: another run, shared by too few to count), 1 more with the
# torch includes (attention). Every TU defines one op the entry calls, so all are parsed.
W4A4_HEADER = """\
// The ops of the extension.
#pragma once
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

namespace w4a4 {{
{decls}at::Tensor forward(const at::Tensor &x);
}} // namespace w4a4
"""

W4A4_KERNELS = """\
// The GEMM kernel template every variant instantiates (plain CUDA, no torch).
#pragma once
#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace w4a4 {

template <typename T> __device__ float act(float v, int kind) {
  return kind == 0 ? v : kind == 1 ? v / (1.0f + __expf(-v)) : fmaxf(v, 0.0f);
}

template <typename T, int Bits, int Act>
__global__ void gemm_kernel(const int8_t *q, const T *scales, T *out, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= n)
    return;
  int v = (q[i / (8 / Bits)] >> (Bits * (i % (8 / Bits)))) & ((1 << Bits) - 1);
  out[i] = T(act<T>(float(v) * float(scales[i / 64]), Act));
}

} // namespace w4a4
"""

W4A4_GEMM = """\
// GEMM variant {name}: {bits}-bit, activation {act}, {dtype}.
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>

#include "../w4a4.h"
#include "gemm_kernels.cuh"

namespace w4a4 {{

at::Tensor {name}(const at::Tensor &x) {{
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == at::kChar, "{name}: int8 CUDA tensor");
  at::Tensor scales = at::ones({{x.numel() / 64 + 1}}, x.options().dtype(at::{attype}));
  at::Tensor y = at::empty({{x.numel()}}, x.options().dtype(at::{attype}));
  int64_t n = y.numel();
  auto stream = at::cuda::getCurrentCUDAStream();
  gemm_kernel<{ctype}, {bits}, {actid}><<<(n + 255) / 256, 256, 0, stream>>>(
      x.data_ptr<int8_t>(), reinterpret_cast<const {ctype} *>(scales.data_ptr()),
      reinterpret_cast<{ctype} *>(y.data_ptr()), n);
  return y;
}}

}} // namespace w4a4
"""

W4A4_TORCH_OP = """\
// {what}.
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>

#include "../w4a4.h"

namespace w4a4 {{

__global__ void {name}_kernel(const float *x, float *y, int64_t n) {{
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n)
    y[i] = rintf(x[i] * 7.0f) / 7.0f;
}}

at::Tensor {name}(const at::Tensor &x) {{
  at::Tensor y = at::empty_like(x);
  int64_t n = x.numel();
  {name}_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}}

}} // namespace w4a4
"""

W4A4_TREE_FIRST = """\
// {what}: starts with the tree's own header (which includes torch).
#include "../w4a4.h"

namespace w4a4 {{

at::Tensor {name}(const at::Tensor &x) {{
  return x * at::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + 1e-6);
}}

}} // namespace w4a4
"""

W4A4_PLAIN_CUDA = """\
// Dequantization to {dtype}: plain CUDA, no torch.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "../gemm/gemm_kernels.cuh"

namespace w4a4 {{

__global__ void {name}_kernel(const int8_t *q, {ctype} *out, int64_t n) {{
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n)
    out[i] = {ctype}(float(q[i]) / 8.0f);
}}

void {name}(const void *q, void *out, int64_t n, cudaStream_t stream) {{
  {name}_kernel<<<(n + 255) / 256, 256, 0, stream>>>(static_cast<const int8_t *>(q),
                                                     static_cast<{ctype} *>(out), n);
}}

}} // namespace w4a4
"""

W4A4_ENTRY = """\
// The entry: the whole forward pass.
#include <torch/all.h>
#include <ATen/cuda/CUDAContext.h>

#include "w4a4.h"

namespace w4a4 {{

at::Tensor forward(const at::Tensor &x) {{
  at::Tensor y = x;
{calls}  return y;
}}

}} // namespace w4a4

TORCH_LIBRARY(w4a4, m) {{ m.def("forward(Tensor x) -> Tensor", &w4a4::forward); }}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


def generate_w4a4(root):
    """The --shape w4a4 tree (see W4A4_HEADER's comment above); returns its TU count."""
    csrc = os.path.join(root, "csrc")
    tensor_ops, calls = [], []
    dtypes = (("bf16", "__nv_bfloat16", "kBFloat16"), ("fp16", "__half", "kHalf"))
    for bits in (4, 8):
        for actid, act in enumerate(("none", "silu", "relu")):
            for dtype, ctype, attype in dtypes:
                name = f"gemm_w{bits}a4_{act}_{dtype}"
                write(os.path.join(csrc, "gemm", name + ".cu"),
                      W4A4_GEMM.format(name=name, bits=bits, act=act, actid=actid, dtype=dtype,
                                       ctype=ctype, attype=attype))
                tensor_ops.append(name)
    for name, what in (("quantize_act", "Activation quantizer"),
                       ("quantize_weight", "Weight quantizer"),
                       ("attention", "Attention on quantized inputs")):
        write(os.path.join(csrc, "ops", name + ".cu"), W4A4_TORCH_OP.format(name=name, what=what))
        tensor_ops.append(name)
    for name, what in (("layernorm", "Layer norm"), ("rmsnorm", "RMS norm")):
        write(os.path.join(csrc, "ops", name + ".cu"), W4A4_TREE_FIRST.format(name=name, what=what))
        tensor_ops.append(name)
    decls = "".join(f"at::Tensor {op}(const at::Tensor &x);\n" for op in tensor_ops)
    for dtype, ctype, _ in dtypes:
        name = "dequant_" + dtype
        write(os.path.join(csrc, "dequant", name + ".cu"),
              W4A4_PLAIN_CUDA.format(name=name, dtype=dtype, ctype=ctype))
        decls += f"void {name}(const void *q, void *out, int64_t n, cudaStream_t stream);\n"
        calls.append(f"  {name}(x.data_ptr(), y.data_ptr(), x.numel(),"
                     " at::cuda::getCurrentCUDAStream());\n")
    write(os.path.join(csrc, "w4a4.h"), W4A4_HEADER.format(decls=decls))
    write(os.path.join(csrc, "gemm", "gemm_kernels.cuh"), W4A4_KERNELS)
    calls = [f"  y = {op}(y);\n" for op in tensor_ops] + calls
    write(os.path.join(csrc, "w4a4.cu"), W4A4_ENTRY.format(calls="".join(calls)))
    return len(tensor_ops) + len(dtypes) + 1



def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opmig", default=str(DEFAULT_OPMIG))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--shape", choices=("uniform", "w4a4"), default="uniform",
                    help="uniform: --tus op TUs all starting with the torch includes; w4a4: a"
                    " real-sized 20-TU closure with mixed leading includes")
    ap.add_argument("--tus", type=int, default=8, help="op TUs (the entry's TU comes on top)")
    ap.add_argument("--modes", default="preamble,plain",
                    help="analyses to run: preamble, plain (--no-preamble), preamble-one-build"
                    " (preamble builds one at a time, through OPMIG_MEMORY_AVAILABLE_MIB)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--torch-dir",
                    default=os.path.expanduser("~/.cache/opmig/torch-" +
                                               (REPO / "scripts/torch-version").read_text().strip()
                                               + "-full"))
    ap.add_argument("--cuda-path", default="")
    ap.add_argument("--gpu-arch", default="sm_90")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    if not os.path.isdir(os.path.join(args.torch_dir, "torch", "include")):
        sys.exit(f"no torch in {args.torch_dir} (scripts/install-deps.sh installs it)")
    cuda = os.path.abspath(args.cuda_path or os.environ.get("CUDA_HOME") or "/usr/local/cuda")
    env = dict(os.environ, OPMIG_NO_TORCH="0", PYTHONPATH=args.torch_dir)
    work = tempfile.mkdtemp(prefix="opmig-preamble-bench-")
    tree = os.path.join(work, "tree")
    if args.shape == "w4a4":
        n_tus, entry = generate_w4a4(tree), "forward"
    else:
        generate_tree(tree, args.tus)
        n_tus, entry = args.tus + 1, "pipeline"
    modes = args.modes.split(",")
    watch = LoadWatch()

    def analyze(cache, *extra, fmt=("--format", "json"), run_env=env):
        argv = [args.opmig, "analyze", "--source", tree, "--entry", entry, "-j",
                str(args.jobs), "--cache-dir", cache, "--cuda-path", cuda, "--gpu-arch",
                args.gpu_arch, "-q", *fmt, *extra]
        return run_measured(argv, env=run_env)

    # 1.5 GiB holds one torch preamble build (1.25 GiB), and two parses with it.
    mode_args = {"preamble": ((), env), "plain": (("--no-preamble",), env),
                 "preamble-one-build": ((), dict(env, OPMIG_MEMORY_AVAILABLE_MIB="1536"))}
    figs = {"tus": n_tus, "jobs": args.jobs, "shape": args.shape, "load_before": os.getloadavg()}
    try:
        results = {}
        for mode in modes:
            extra, mode_env = mode_args[mode]
            cache = os.path.join(work, "cache-" + mode)
            cold = analyze(cache, *extra, run_env=mode_env)
            warm = analyze(cache, *extra, run_env=mode_env)
            doc = json.loads(cold.out)
            results[mode] = doc
            figs[mode] = {"cold_s": cold.wall, "cold_cpu_s": cold.cpu,
                          "peak_rss_mib": cold.rss_kib / 1024, "warm_s": warm.wall,
                          "warm_share": warm.wall / cold.wall,
                          "parses_run": doc["stats"]["parses_run"],
                          "parses_with_preamble": doc["stats"]["parses_with_preamble"],
                          "preambles": doc["stats"]["preambles"],
                          "concurrency": doc["stats"].get("concurrency", []),
                          "stages_s": doc["stats"]["seconds"],
                          "warm_parses_run": json.loads(warm.out)["stats"]["parses_run"]}
        text = analyze(os.path.join(work, "cache-preamble"), fmt=("--format", "text", "-v"))
        inferred = inferred_flags(text.out)
        clang = ClangBaseline(args.clang, cuda, args.gpu_arch)
        jobs = clang.jobs(tree, results[modes[0]]["stats"]["parsed"], inferred, [])
        base = clang.run(tree, jobs, args.jobs)
        figs["clang"] = {"wall_s": base["wall"], "cpu_s": base["cpu"],
                         "max_rss_mib": base["max_rss_kib"] / 1024, "failed": base["failed"]}
        bare = [json.dumps({k: v for k, v in results[m].items() if k != "stats"}, sort_keys=True)
                for m in modes]
        figs["same_result"] = all(b == bare[0] for b in bare)
        figs["other_cpu_s"], figs["wall_s"] = watch.other_cpu(), watch.elapsed()
        figs["load_after"] = os.getloadavg()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"tree: {args.shape}, {figs['tus']} TUs; -j {args.jobs}; torch in {args.torch_dir};"
          f" load average {figs['load_before'][0]:.2f} before, {figs['load_after'][0]:.2f} after")
    print(f"clang -fsyntax-only -j{args.jobs}, no PCH: {figs['clang']['wall_s']:.1f} s"
          f" (CPU {figs['clang']['cpu_s']:.1f} s, largest parse"
          f" {figs['clang']['max_rss_mib']:.0f} MiB, {figs['clang']['failed']} failed)")
    for mode in modes:
        f = figs[mode]
        ratio = f["cold_s"] / figs["clang"]["wall_s"]
        print(f"{mode}: cold {f['cold_s']:.1f} s (CPU {f['cold_cpu_s']:.1f} s), cold/clang"
              f" {ratio:.2f} (target <= {TARGET_COLD_RATIO}), warm {f['warm_s']:.2f} s ="
              f" {100 * f['warm_share']:.2f}% of cold (target <= {100 * TARGET_WARM_SHARE:.0f}%),"
              f" peak RSS -j{args.jobs} {f['peak_rss_mib']:.0f} MiB; {f['parses_run']} parses,"
              f" {f['parses_with_preamble']} with the preamble")
        for note in f["preambles"] + f["concurrency"]:
            print(f"    {note}")
        print("    stages: " + ", ".join(f"{k} {v:.1f} s" for k, v in f["stages_s"].items()))
    print(f"same result in every mode: {figs['same_result']}")
    load = load_note(figs["other_cpu_s"], figs["wall_s"])
    if load:
        print(f"note: {load}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figs, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
