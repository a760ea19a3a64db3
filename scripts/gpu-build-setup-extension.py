#!/usr/bin/env python3
"""Builds the extension that `opmig migrate --profile cache-dit` wrote into a target's setup.py,
with nvcc against the torch that python3 imports, and loads it. Runs on the GPU machine.

The generated block (`# >>> opmig DOMAIN:setup-extension`) is self-contained, so it is run alone:
the rest of the target's setup.py (its version scheme, its other extensions) is not needed. The
extension is built by torch.utils.cpp_extension.load (ninja, in parallel) with exactly the
sources, include dirs and flags the block gives, for CACHE_DIT_CUDA_ARCH_LIST (default 89), then
imported: an undefined symbol fails the import. Prints the bound ops and PASS.

    python3 scripts/gpu-build-setup-extension.py TARGET DOMAIN BUILD_DIR
"""

import os
import re
import sys
import time


def generated_block(setup_py: str, domain: str) -> str:
    text = open(setup_py, encoding="utf-8").read()
    match = re.search(
        rf"^# >>> opmig {domain}:setup-extension[^\n]*\n(.*?)^# <<< opmig {domain}:setup-extension",
        text,
        re.S | re.M,
    )
    if not match:
        sys.exit(f"{setup_py}: no opmig {domain}:setup-extension block")
    return match.group(1)


def main(target: str, domain: str, build_dir: str) -> int:
    os.environ[f"CACHE_DIT_BUILD_{domain.upper()}"] = "1"
    os.environ.setdefault("CACHE_DIT_CUDA_ARCH_LIST", "89")
    # load() adds -gencode flags of its own from TORCH_CUDA_ARCH_LIST: the same targets.
    arch = os.environ["CACHE_DIT_CUDA_ARCH_LIST"].split(";")[0]
    os.environ["TORCH_CUDA_ARCH_LIST"] = arch[:-1] + "." + arch[-1] if arch.isdigit() else arch
    setup_py = os.path.join(target, "setup.py")
    scope = {"__file__": os.path.abspath(setup_py), "os": os}
    exec(compile(generated_block(setup_py, domain), setup_py, "exec"), scope)
    extension = scope[f"_get_{domain}_extension"]()
    from torch.utils.cpp_extension import load

    os.makedirs(build_dir, exist_ok=True)
    start = time.time()
    module = load(
        name=extension.name.rsplit(".", 1)[-1],
        sources=[os.path.join(target, source) for source in extension.sources],
        extra_include_paths=extension.include_dirs,
        extra_cflags=extension.extra_compile_args["cxx"],
        extra_cuda_cflags=extension.extra_compile_args["nvcc"],
        build_directory=build_dir,
        verbose=False,
    )
    print(f"built and loaded {extension.name} in {time.time() - start:.0f} s")
    print("ops:", sorted(name for name in dir(module.ops) if not name.startswith("_")))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
