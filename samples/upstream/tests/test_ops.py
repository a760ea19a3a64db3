"""Checks the sample ops against plain PyTorch references (needs a CUDA GPU and nvcc).

Run: python tests/test_ops.py   (or pytest tests/test_ops.py)
"""
import math
import os
import sys

import torch
from torch.utils.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "..", "csrc")
SOURCES = [
    "torch_bindings.cpp",
    "attention/merge_attn_states.cu",
    "attention/merge_attn_states_fp16.cu",
    "attention/merge_attn_states_bf16.cu",
    "attention/merge_attn_states_fp32.cu",
    "norm/rms_norm.cu",
]
DTYPES = [torch.float32, torch.float16, torch.bfloat16]

_loaded = False


def ops():
    global _loaded
    if not _loaded:
        load(
            name="sample_ops",
            sources=[os.path.join(CSRC, s) for s in SOURCES],
            extra_include_paths=[CSRC],
            extra_cuda_cflags=["-O2"],
            is_python_module=False,
            verbose=bool(os.environ.get("VERBOSE")),
        )
        _loaded = True
    return torch.ops.sample_ops


def merge_ref(v_a, lse_a, v_b, lse_b):
    m = torch.maximum(lse_a, lse_b)
    empty = m == -math.inf
    m_safe = torch.where(empty, torch.zeros_like(m), m)
    w_a = torch.exp(lse_a - m_safe)
    w_b = torch.exp(lse_b - m_safe)
    s = w_a + w_b
    out = (v_a.float() * w_a[..., None] + v_b.float() * w_b[..., None]) / s[..., None]
    out = torch.where(empty[..., None], torch.zeros_like(out), out)
    lse = torch.where(empty, torch.full_like(m, -math.inf), m_safe + torch.log(s))
    return out.to(v_a.dtype), lse


def rms_norm_ref(x, w, eps):
    xf = x.float()
    inv = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    return (xf * inv * w.float()).to(x.dtype)


def test_merge_attn_states():
    torch.manual_seed(0)
    for dtype in DTYPES:
        for tokens, heads, head_size in [(1, 1, 64), (37, 8, 128), (5, 3, 80)]:
            v_a = torch.randn(tokens, heads, head_size, device="cuda", dtype=dtype)
            v_b = torch.randn(tokens, heads, head_size, device="cuda", dtype=dtype)
            lse_a = torch.randn(tokens, heads, device="cuda") * 4
            lse_b = torch.randn(tokens, heads, device="cuda") * 4
            lse_a[0, 0] = -math.inf  # one side saw no keys
            if tokens > 1:
                lse_a[1, 0] = -math.inf  # neither side saw keys
                lse_b[1, 0] = -math.inf
            out, out_lse = ops().merge_attn_states(v_a, lse_a, v_b, lse_b)
            ref_out, ref_lse = merge_ref(v_a, lse_a, v_b, lse_b)
            torch.testing.assert_close(out, ref_out)
            torch.testing.assert_close(out_lse, ref_lse)


def test_merge_attn_states_rejects_bad_lse_dtype():
    v = torch.randn(2, 2, 16, device="cuda")
    lse = torch.randn(2, 2, device="cuda", dtype=torch.float16)
    try:
        ops().merge_attn_states(v, lse, v, lse)
    except RuntimeError as e:
        assert "float32" in str(e)
    else:
        raise AssertionError("expected a RuntimeError")


def test_rms_norm():
    torch.manual_seed(1)
    for dtype in DTYPES:
        for shape in [(1, 8), (13, 1000), (2, 3, 4096)]:
            x = torch.randn(*shape, device="cuda", dtype=dtype)
            w = torch.randn(shape[-1], device="cuda", dtype=dtype)
            out = ops().rms_norm(x, w, 1e-6)
            torch.testing.assert_close(out, rms_norm_ref(x, w, 1e-6))


if __name__ == "__main__":
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print(f"PASS {name}")
            except Exception as e:  # report every test, then fail
                failed += 1
                print(f"FAIL {name}: {type(e).__name__}: {e}")
    sys.exit(1 if failed else 0)
