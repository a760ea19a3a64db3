"""The sample upstream's ops (samples/upstream) in plain PyTorch: the references of
`opmig validate`'s parity layer for kernels/sample_ops (its opmig-validation-spec.json) and
for the demo's migration (attn-spec.json beside this file), and of kernels/tests."""

import math

import torch


def merge_attn_states(v_a, lse_a, v_b, lse_b):
    m = torch.maximum(lse_a, lse_b)
    empty = m == -math.inf
    m_safe = torch.where(empty, torch.zeros_like(m), m)
    w_a, w_b = torch.exp(lse_a - m_safe), torch.exp(lse_b - m_safe)
    s = w_a + w_b
    out = (v_a.float() * w_a[..., None] + v_b.float() * w_b[..., None]) / s[..., None]
    out = torch.where(empty[..., None], torch.zeros_like(out), out)
    lse = torch.where(empty, torch.full_like(m, -math.inf), m_safe + torch.log(s))
    return out.to(v_a.dtype), lse


def rms_norm(x, weight, eps):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()).to(x.dtype)
