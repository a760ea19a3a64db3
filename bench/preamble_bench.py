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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opmig", default=str(DEFAULT_OPMIG))
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--tus", type=int, default=8, help="op TUs (the entry's TU comes on top)")
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
    generate_tree(tree, args.tus)
    watch = LoadWatch()

    def analyze(cache, *extra, fmt=("--format", "json")):
        argv = [args.opmig, "analyze", "--source", tree, "--entry", "pipeline", "-j",
                str(args.jobs), "--cache-dir", cache, "--cuda-path", cuda, "--gpu-arch",
                args.gpu_arch, "-q", *fmt, *extra]
        return run_measured(argv, env=env)

    figs = {"tus": args.tus + 1, "jobs": args.jobs}
    try:
        results = {}
        for mode, extra in (("preamble", ()), ("plain", ("--no-preamble",))):
            cache = os.path.join(work, "cache-" + mode)
            cold = analyze(cache, *extra)
            warm = analyze(cache, *extra)
            doc = json.loads(cold.out)
            results[mode] = doc
            figs[mode] = {"cold_s": cold.wall, "cold_cpu_s": cold.cpu,
                          "peak_rss_mib": cold.rss_kib / 1024, "warm_s": warm.wall,
                          "warm_share": warm.wall / cold.wall,
                          "parses_run": doc["stats"]["parses_run"],
                          "parses_with_preamble": doc["stats"]["parses_with_preamble"],
                          "preambles": doc["stats"]["preambles"],
                          "warm_parses_run": json.loads(warm.out)["stats"]["parses_run"]}
        text = analyze(os.path.join(work, "cache-preamble"), fmt=("--format", "text", "-v"))
        inferred = inferred_flags(text.out)
        clang = ClangBaseline(args.clang, cuda, args.gpu_arch)
        jobs = clang.jobs(tree, results["plain"]["stats"]["parsed"], inferred, [])
        base = clang.run(tree, jobs, args.jobs)
        figs["clang"] = {"wall_s": base["wall"], "cpu_s": base["cpu"],
                         "max_rss_mib": base["max_rss_kib"] / 1024, "failed": base["failed"]}
        a, b = dict(results["preamble"]), dict(results["plain"])
        a.pop("stats")
        b.pop("stats")
        figs["same_result"] = json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        figs["other_cpu_s"], figs["wall_s"] = watch.other_cpu(), watch.elapsed()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"tree: {figs['tus']} TUs including <torch/all.h> and <ATen/cuda/CUDAContext.h>;"
          f" -j {args.jobs}; torch in {args.torch_dir}")
    print(f"clang -fsyntax-only -j{args.jobs}, no PCH: {figs['clang']['wall_s']:.1f} s"
          f" (CPU {figs['clang']['cpu_s']:.1f} s, largest parse"
          f" {figs['clang']['max_rss_mib']:.0f} MiB, {figs['clang']['failed']} failed)")
    for mode in ("preamble", "plain"):
        f = figs[mode]
        ratio = f["cold_s"] / figs["clang"]["wall_s"]
        print(f"{mode:>9}: cold {f['cold_s']:.1f} s (CPU {f['cold_cpu_s']:.1f} s), cold/clang"
              f" {ratio:.2f} (target <= {TARGET_COLD_RATIO}), warm {f['warm_s']:.2f} s ="
              f" {100 * f['warm_share']:.2f}% of cold (target <= {100 * TARGET_WARM_SHARE:.0f}%),"
              f" peak RSS -j{args.jobs} {f['peak_rss_mib']:.0f} MiB; {f['parses_run']} parses,"
              f" {f['parses_with_preamble']} with the preamble")
        for note in f["preambles"]:
            print(f"           {note}")
    print(f"same result with and without the preamble: {figs['same_result']}")
    load = load_note(figs["other_cpu_s"], figs["wall_s"])
    if load:
        print(f"note: {load}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figs, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
