"""Loads a generic-profile migration of tests/fixtures/upstream/sibling_headers and runs its ops.

The migration of `rms_norm` and `gelu` leaves their siblings (`layer_norm`, `silu`) out of the
ported TUs, together with the includes only they used. The library must load (a sliced TU that
still called a sibling's launcher fails with `undefined symbol`), register exactly the two ops,
and compute what the upstream kernels compute.

Usage (on a GPU machine, after scripts/gpu-build-generic.sh built the library):
    python3 tests/gpu/check_sibling_headers.py path/to/libopmig_sh_ops.so opmig_sh_ops
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
    expected = ["gelu", "rms_norm"]
    if registered != expected:
        raise SystemExit(f"FAIL registration: expected exactly {expected}")
    cuda = torch.device("cuda")
    x = torch.randn(64, 1000, device=cuda)
    reference = x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + 1e-6)
    torch.testing.assert_close(ops.rms_norm(x), reference, rtol=1e-4, atol=1e-5)
    print("rms_norm: ok")
    flat = torch.randn(4099, device=cuda)
    reference = flat * torch.sigmoid(1.702 * flat)
    torch.testing.assert_close(ops.gelu(flat), reference, rtol=1e-4, atol=1e-5)
    print("gelu: ok")
    torch.cuda.synchronize()
    print("PASS")


if __name__ == "__main__":
    check(sys.argv[1], sys.argv[2])
