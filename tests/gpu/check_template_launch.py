"""Loads a generic-profile migration of tests/fixtures/upstream/template_launch and runs its ops.

The migrated library must load with torch.ops.load_library (a closure that missed a per-dtype
instantiation TU fails right there with `undefined symbol`), register exactly the five ops, and
compute what the upstream kernels compute, for every dtype its dispatch reaches.

Usage (on a GPU machine, after scripts/gpu-build-generic.sh built the library):
    python3 tests/gpu/check_template_launch.py path/to/libopmig_tl_ops.so opmig_tl_ops
"""

import sys

import torch


def check(library: str, namespace: str) -> None:
    try:
        torch.ops.load_library(library)
    except OSError as error:
        cause = error.__cause__ or error
        raise SystemExit(f"FAIL load: {cause}") from error
    print(f"loaded {library}")
    ops = getattr(torch.ops, namespace)
    registered = sorted(
        name.split("::", 1)[1]
        for name in torch._C._dispatch_get_all_op_names()
        if name.startswith(namespace + "::")
    )
    print(f"registered in {namespace}: {registered}")
    expected = ["axpy", "bias_act", "gate", "pack", "scale_rows"]
    if registered != expected:
        raise SystemExit(f"FAIL registration: expected exactly {expected}")
    cuda = torch.device("cuda")
    for dtype in (torch.float32, torch.float16):
        x = torch.randn(1031, device=cuda).to(dtype)
        y = torch.zeros_like(x)
        ops.axpy(x, y)
        torch.testing.assert_close(y, x, rtol=0, atol=0)
        rows = torch.randn(37, 129, device=cuda).to(dtype)
        torch.testing.assert_close(ops.scale_rows(rows), rows, rtol=0, atol=0)
        torch.testing.assert_close(ops.gate(x), x, rtol=0, atol=0)
        torch.testing.assert_close(ops.pack(x), x, rtol=0, atol=0)
        print(f"axpy, scale_rows, gate, pack: {dtype} ok")
    x = torch.randn(1000, device=cuda)
    torch.testing.assert_close(ops.bias_act(x, True), torch.relu(x), rtol=0, atol=0)
    torch.testing.assert_close(ops.bias_act(x, False), x, rtol=0, atol=0)
    print("bias_act: relu and identity ok")
    torch.cuda.synchronize()
    print("PASS")


if __name__ == "__main__":
    check(sys.argv[1], sys.argv[2])
