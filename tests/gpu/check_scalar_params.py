"""Loads a generic-profile migration of tests/fixtures/upstream/scalar_params and runs its ops.

The upstream functions declare `float`, `int` and `std::optional<long long>`, which torch's
dispatcher does not pass; the generated registration must go through adapters, and the ops must
compute what the upstream kernels compute from Python floats and ints.

Usage (on a GPU machine, after scripts/gpu-build-generic.sh built the library):
    python3 tests/gpu/check_scalar_params.py path/to/libopmig_scalars.so opmig_scalars
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
    print(f"scale_shift schema: {ops.scale_shift.default._schema}")
    cuda = torch.device("cuda")
    x = torch.randn(3001, device=cuda)
    torch.testing.assert_close(ops.scale_shift(x, 2.5, 3), x * 2.5 + 3)
    torch.testing.assert_close(ops.add_bias(x, -1.25), x - 1.25)
    out = torch.zeros(100, device=cuda)
    ops.fill_value(out, 7.0, 40)
    expected = torch.zeros(100, device=cuda)
    expected[:40] = 7.0
    torch.testing.assert_close(out, expected, rtol=0, atol=0)
    ops.fill_value(out, -2.0, None)
    torch.testing.assert_close(out, torch.full((100,), -2.0, device=cuda), rtol=0, atol=0)
    print("scale_shift, add_bias, fill_value: ok")
    with torch.device("meta"):
        meta = ops.scale_shift(torch.empty(5, 7), 1.0, 0)
    assert meta.shape == (5, 7), meta.shape
    print("meta kernel: ok")
    torch.cuda.synchronize()
    print("PASS")


if __name__ == "__main__":
    check(sys.argv[1], sys.argv[2])
