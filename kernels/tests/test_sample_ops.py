"""GPU parity of the migrated kernels/sample_ops against plain PyTorch references.

kernels/sample_ops is produced by `opmig migrate` (scripts/kernels.sh); this checks that the
port still computes what samples/upstream computes, and that its Meta kernels give the shapes
and dtypes of the real ones. Needs a CUDA GPU, torch and the built library:

    cmake -S kernels/sample_ops -B build-kernels -DCMAKE_PREFIX_PATH="$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')"
    cmake --build build-kernels -j
    OPMIG_SAMPLE_OPS_LIB=build-kernels/libopmig_sample_ops.so python3 -m pytest kernels/tests -v

Without a GPU or without OPMIG_SAMPLE_OPS_LIB every test is skipped, with the reason printed.
"""
import math
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "samples", "validation"))
from sample_reference import merge_attn_states as merge_ref  # noqa: E402
from sample_reference import rms_norm as rms_norm_ref  # noqa: E402

LIB = os.environ.get("OPMIG_SAMPLE_OPS_LIB")
pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU"),
    pytest.mark.skipif(not LIB, reason="set OPMIG_SAMPLE_OPS_LIB to the built libopmig_sample_ops.so"),
]
DTYPES = [torch.float32, torch.float16, torch.bfloat16]
TOL = {torch.float32: (1.3e-6, 1e-5), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}


@pytest.fixture(scope="module")
def ops():
    torch.ops.load_library(LIB)
    return torch.ops.opmig_sample_ops


@pytest.mark.parametrize("dtype", DTYPES)
def test_merge_attn_states_matches_reference(ops, dtype):
    torch.manual_seed(0)
    tokens, heads, head_size = 37, 8, 128
    v_a = torch.randn(tokens, heads, head_size, device="cuda", dtype=dtype)
    v_b = torch.randn_like(v_a)
    lse_a = torch.randn(tokens, heads, device="cuda")
    lse_b = torch.randn(tokens, heads, device="cuda")
    lse_a[0, 0] = lse_b[0, 0] = -math.inf  # an empty row on both sides
    out, lse = ops.merge_attn_states(v_a, lse_a, v_b, lse_b)
    ref_out, ref_lse = merge_ref(v_a, lse_a, v_b, lse_b)
    rtol, atol = TOL[dtype]
    torch.testing.assert_close(out.float(), ref_out.float(), rtol=max(rtol, 1e-3), atol=max(atol, 1e-3))
    torch.testing.assert_close(lse, ref_lse, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rms_norm_matches_reference(ops, dtype):
    torch.manual_seed(1)
    x = torch.randn(5, 7, 1024, device="cuda", dtype=dtype)
    w = torch.randn(1024, device="cuda", dtype=dtype)
    out = ops.rms_norm(x, w, 1e-6)
    rtol, atol = TOL[dtype]
    torch.testing.assert_close(out.float(), rms_norm_ref(x, w, 1e-6).float(),
                               rtol=max(rtol, 1e-3), atol=max(atol, 1e-3))


def test_meta_kernels_give_the_real_shapes_and_dtypes(ops):
    v = torch.empty(3, 4, 64, device="meta", dtype=torch.bfloat16)
    lse = torch.empty(3, 4, device="meta")
    out, out_lse = ops.merge_attn_states(v, lse, v, lse)
    assert (out.shape, out.dtype) == (v.shape, v.dtype)
    assert (out_lse.shape, out_lse.dtype) == ((3, 4), torch.float32)
    x = torch.empty(2, 9, 32, device="meta", dtype=torch.float16)
    y = ops.rms_norm(x, torch.empty(32, device="meta", dtype=torch.float16), 1e-6)
    assert (y.shape, y.dtype) == (x.shape, x.dtype)


def test_bad_input_is_rejected(ops):
    v = torch.randn(3, 4, 64, device="cuda")
    lse = torch.randn(3, 5, device="cuda")  # wrong heads
    with pytest.raises(RuntimeError, match="lse_a must be"):
        ops.merge_attn_states(v, lse, v, lse)
