#!/usr/bin/env python3
"""Recompute chapter 10's Transformer block with PyTorch from its --dump files.

usage: check_framework.py DIR [TOLERANCE]

DIR holds the .npy files that `ch10_transformer --dump DIR` writes (their
names and layouts are listed in README.md). The attention goes through
torch.nn.MultiheadAttention and the whole block through
torch.nn.TransformerEncoderLayer (post-norm, ReLU, no dropout), both in
float64 with the chapter's weights loaded into them. Every comparison prints
its largest absolute difference. A control runs the same comparison with
PyTorch's block given no causal mask: it must disagree, or the comparison
could not tell the chapter's causal block from another one. The exit status
is 1 if a comparison exceeds the tolerance (default 1e-6) or the control
agrees, 0 otherwise.
"""
import os
import sys

import numpy as np
import torch


def load(directory, name):
    return torch.from_numpy(np.load(os.path.join(directory, name + ".npy")))


def attention(t, x, mask):
    """torch's multi-head attention with the chapter's W_q, W_k, W_v, W_o."""
    d, heads = x.shape[1], t["attn_weights"].shape[0]
    mha = torch.nn.MultiheadAttention(d, heads, bias=False, batch_first=True,
                                      dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([t["Wq"], t["Wk"], t["Wv"]]))
        mha.out_proj.weight.copy_(t["Wo"])
    out, weights = mha(x[None], x[None], x[None], attn_mask=mask, need_weights=True,
                       average_attn_weights=False)
    return out[0], weights[0]


def encoder_layer(t, x, mask):
    """torch's Transformer layer (Vaswani et al.'s post-norm block), same weights."""
    d, heads = x.shape[1], t["attn_weights"].shape[0]
    layer = torch.nn.TransformerEncoderLayer(
        d, heads, dim_feedforward=t["W1"].shape[0], dropout=0.0, activation="relu",
        layer_norm_eps=float(t["eps"][0]), batch_first=True, norm_first=False,
        dtype=torch.float64)
    with torch.no_grad():
        layer.self_attn.in_proj_weight.copy_(torch.cat([t["Wq"], t["Wk"], t["Wv"]]))
        layer.self_attn.in_proj_bias.zero_()
        layer.self_attn.out_proj.weight.copy_(t["Wo"])
        layer.self_attn.out_proj.bias.zero_()
        layer.linear1.weight.copy_(t["W1"])
        layer.linear1.bias.copy_(t["b1"])
        layer.linear2.weight.copy_(t["W2"])
        layer.linear2.bias.copy_(t["b2"])
        layer.norm1.weight.copy_(t["ln1_gamma"])
        layer.norm1.bias.copy_(t["ln1_beta"])
        layer.norm2.weight.copy_(t["ln2_gamma"])
        layer.norm2.bias.copy_(t["ln2_beta"])
    layer.eval()
    return layer(x[None], src_mask=mask)[0]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2])
    directory = sys.argv[1]
    tolerance = float(sys.argv[2]) if len(sys.argv) == 3 else 1e-6
    names = ["x", "Wq", "Wk", "Wv", "Wo", "attn_weights", "attn_out", "ln1_gamma", "ln1_beta",
             "W1", "b1", "W2", "b2", "ln2_gamma", "ln2_beta", "eps", "y"]
    t = {n: load(directory, n) for n in names}
    x = t["x"]
    T = x.shape[0]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)  # True: not allowed
    with torch.no_grad():
        out, weights = attention(t, x, mask)
        y = encoder_layer(t, x, mask)
    rows = [("attention weights, every head", weights, t["attn_weights"]),
            ("attention output after W_o", out, t["attn_out"]),
            ("block output (TransformerEncoderLayer)", y, t["y"])]
    print(f"PyTorch {torch.__version__}, float64: T = {T}, d = {x.shape[1]}, "
          f"H = {t['attn_weights'].shape[0]}, m = {t['W1'].shape[0]}")
    worst = 0.0
    for what, got, want in rows:
        diff = (got - want).abs().max().item()
        worst = max(worst, diff)
        print(f"  {what:40s} largest difference {diff:.3g}")
    verdict = "agree" if worst <= tolerance else "DISAGREE"
    print(f"check-framework: the C block and PyTorch {verdict}: largest difference "
          f"{worst:.3g} (tolerance {tolerance:g})")
    with torch.no_grad():
        unmasked = encoder_layer(t, x, None)
    control = (unmasked - t["y"]).abs().max().item()
    holds = control <= tolerance
    print(f"  control (PyTorch's block without the causal mask): largest difference "
          f"{control:.3g}: " + ("AGREES: the comparison cannot tell (a defect)" if holds
                                else "disagrees, as it should"))
    return 0 if worst <= tolerance and not holds else 1


if __name__ == "__main__":
    sys.exit(main())
