#!/usr/bin/env python3
"""Benchmark `opmig audit --profile cache-dit` on a generated ~1,000-file repository.

Writes a deterministic tree in the cache-dit layout (Python kernel modules under
src/cache_dit/kernels, per-domain C++/CUDA under csrc/kernels/<domain>/, Python packages and
tests elsewhere) into a temporary directory, then times `opmig audit --format json` with the
built-in rules, `--repeat` times, and prints the median wall time and the split between the
rule kinds from the report's `stats.checker_seconds`, next to a baseline measured in the same
run: CPython's `ast.parse` of every .py file in one interpreter. Nothing here asserts a timing:
the target (issue 4: under 3 s on 2 cores) is printed next to the figure. See bench/README.md.

Standard library only:  python3 bench/audit_bench.py [--files 1000] [--repeat 3] [--json FILE]
"""

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from benchlib import DEFAULT_OPMIG, LoadWatch, binary_stamp, load_note, run_measured

TARGET_S = 3.0

KERNEL_MODULE = '''"""Python entry points of the {domain} kernels."""

import importlib

import torch

_cached_module = None
_cached_error = None


def _load_extension_module():
    global _cached_module, _cached_error
    if _cached_module is None and _cached_error is None:
        try:
            _cached_module = importlib.import_module("cache_dit._C_{domain}")
        except ImportError as error:
            _cached_error = error
    return _cached_module


def {domain}_extension_is_available():
    return _load_extension_module() is not None


def {domain}_get_load_error():
    return _cached_error


def _get_required_ops_module():
    if _load_extension_module() is None:
        raise RuntimeError("the {domain} extension is not built")
    return torch.ops.cache_dit_cuda_ops


torch.library.define("cache_dit_cuda_ops::{domain}_fwd", "(Tensor x) -> Tensor")


@torch.library.impl("cache_dit_cuda_ops::{domain}_fwd", "CUDA")
def _{domain}_fwd_cuda(x):
    return _get_required_ops_module().{domain}_fwd(x)


@torch.library.register_fake("cache_dit_cuda_ops::{domain}_fwd")
def _fake_{domain}_fwd(x):
    return torch.empty_like(x)


def {domain}_fwd(x):
    return torch.ops.cache_dit_cuda_ops.{domain}_fwd(x)
'''

KERNEL_CU = '''#include "{domain}.h"

namespace cache_dit::{domain} {{

template <typename T> __global__ void {domain}_kernel_{i}(T *out, const T *in, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    out[idx] = in[idx] * static_cast<T>({i});
}}

void launch_{domain}_{i}(float *out, const float *in, int n) {{
  {domain}_kernel_{i}<<<(n + 255) / 256, 256>>>(out, in, n);
}}

}} // namespace cache_dit::{domain}
'''

DOMAIN_H = '''#pragma once
#include <torch/extension.h>

namespace cache_dit::{domain} {{
at::Tensor {domain}_fwd(const at::Tensor &x);
}} // namespace cache_dit::{domain}
'''

DOMAIN_CPP = '''#include "{domain}.h"

namespace cache_dit::{domain} {{
at::Tensor {domain}_fwd(const at::Tensor &x) {{ return x.clone(); }}
}} // namespace cache_dit::{domain}

TORCH_LIBRARY_FRAGMENT(cache_dit_cuda_ops, m) {{
  m.def("{domain}_fwd(Tensor x) -> Tensor");
}}

TORCH_LIBRARY_IMPL(cache_dit_cuda_ops, CUDA, m) {{
  m.impl("{domain}_fwd", &cache_dit::{domain}::{domain}_fwd);
}}
'''

PLAIN_PY = '''"""Module {i} of {package}."""

SCALE_{i} = {i}


def helper_{i}(value):
    return value * SCALE_{i}


class Model{i}:
    def forward(self, x):
        return helper_{i}(x)
'''

TEST_PY = '''import pytest


def test_helper_{i}():
    from cache_dit.{package}.module_{i} import helper_{i}
    assert helper_{i}(2) == 2 * {i}
'''


def generate(root, files):
    """Writes about `files` files: 5% kernel domains (5 files each), the rest plain Python,
    tests and docs. Returns the count written."""
    written = 0

    def put(path, text):
        nonlocal written
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        written += 1

    domains = max(1, files // 100)
    for d in range(domains):
        domain = f"dom{d}"
        put(f"src/cache_dit/kernels/_{domain}.py", KERNEL_MODULE.format(domain=domain))
        put(f"csrc/kernels/{domain}/{domain}.h", DOMAIN_H.format(domain=domain))
        put(f"csrc/kernels/{domain}/{domain}.cpp", DOMAIN_CPP.format(domain=domain))
        for i in range(3):
            put(f"csrc/kernels/{domain}/{domain}_{i}.cu", KERNEL_CU.format(domain=domain, i=i))
    names = [f"dom{d}" for d in range(domains)]
    put("src/cache_dit/kernels/__init__.py",
        "".join(f"from ._{n} import {n}_fwd\n" for n in names) +
        "\n__all__ = [" + ", ".join(f'"{n}_fwd"' for n in names) + "]\n")
    put("tests/kernels/test_ops_dispatch.py", "def test_dispatch():\n    pass\n")
    i = 0
    while written < files:
        package = f"pkg{i % 20}"
        if i % 4 == 3:
            put(f"tests/{package}/test_module_{i}.py", TEST_PY.format(i=i, package=package))
        elif i % 10 == 9:
            put(f"docs/{package}/page_{i}.md", f"# Page {i}\n\nSee src/cache_dit/{package}.\n")
        else:
            put(f"src/cache_dit/{package}/module_{i}.py", PLAIN_PY.format(i=i, package=package))
        i += 1
    return written


def parse_baseline(root):
    """argv that parses every .py file of the tree with CPython's ast in one
    interpreter: the floor under the python rules, which do that and more."""
    script = ("import ast, pathlib, sys\n"
              "for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):\n"
              "    ast.parse(path.read_bytes())\n")
    return [sys.executable, "-I", "-S", "-c", script, str(root)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opmig", default=str(DEFAULT_OPMIG), help="the opmig binary")
    parser.add_argument("--files", type=int, default=1000, help="size of the generated tree")
    parser.add_argument("--repeat", type=int, default=3, help="runs to take the median of")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    if not Path(args.opmig).is_file():
        sys.exit(f"no opmig binary at {args.opmig}; build it or pass --opmig")

    with tempfile.TemporaryDirectory(prefix="opmig-audit-bench-") as tmp:
        root = Path(tmp) / "cache-dit"
        count = generate(root, args.files)
        walls, splits = [], []
        watch = LoadWatch()
        for _ in range(args.repeat):
            run = run_measured([args.opmig, "audit", str(root), "--profile", "cache-dit",
                                "--format", "json"])
            if run.rc not in (0, 1):
                sys.exit(f"opmig audit failed ({run.rc}):\n{run.err}")
            report = json.loads(run.out)
            walls.append(run.wall)
            splits.append(report["stats"]["checker_seconds"])
        baselines = [run_measured(parse_baseline(root)).wall for _ in range(args.repeat)]
        other_cpu = watch.other_cpu()
        findings = len(report["findings"])

    median = statistics.median(walls)
    baseline = statistics.median(baselines)
    kinds = sorted({k for split in splits for k in split})
    split = {k: statistics.median(s.get(k, 0.0) for s in splits) for k in kinds}
    print(f"opmig {binary_stamp(args.opmig)}")
    print(f"tree: {count} files (cache-dit layout), {findings} findings")
    print(f"audit --profile cache-dit: median {median:.2f} s over {args.repeat} runs "
          f"(target < {TARGET_S:.0f} s on 2 cores: {'met' if median < TARGET_S else 'NOT met'})")
    for kind in kinds:
        print(f"  {kind:<14} {split[kind]:.2f} s")
    print(f"baseline: python3 ast.parse of every .py file, one process: median {baseline:.2f} s; "
          f"audit / baseline = {median / baseline:.1f}x")
    note = load_note(other_cpu, sum(walls))
    if note:
        print(note)
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"files": count, "findings": findings, "median_s": median, "runs_s": walls,
             "checker_seconds": split, "target_s": TARGET_S, "baseline_s": baseline},
            indent=2) + "\n")


if __name__ == "__main__":
    main()
