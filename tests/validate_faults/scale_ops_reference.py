"""Plain-torch references of the fixtures' ops (tests/fixtures/upstream/validate_ops, diff_ops).

`opmig validate`'s parity layer compares each op with these, and its fake layer, on a machine
without a GPU, compares the fake's shapes and dtypes with theirs (run on the CPU). The driver
copies this file to the root of each migrated target, where the validation spec's `reference`
(`scale_ops_reference:<function>`) finds it. The faulty twins of an op share its reference.
"""

import torch


def scale_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    """x + alpha * y, computed in float32 and rounded once, as the kernel does."""
    return (x.float() + alpha * y.float()).to(x.dtype)


def scale_into(out: torch.Tensor, x: torch.Tensor, alpha: float) -> None:
    """Writes alpha * x into out."""
    out.copy_(alpha * x.float())


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    """GELU's tanh approximation in float32 (float64 too, as the kernel does), rounded once."""
    return torch.nn.functional.gelu(x.float(), approximate="tanh").to(x.dtype)
