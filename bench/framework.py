#!/usr/bin/env python3
"""make bench-framework: mainstream engines' CPU attention beside ours, as
ratios measured in one run.

usage: framework.py BENCH BUILD_DIR

Engines, each used when its Python package can be imported:
  - PyTorch: torch.nn.functional.scaled_dot_product_attention(is_causal=True),
    PyTorch 2's fused kernel; on older versions (Debian's 1.13) the same
    computation in PyTorch's own ops (matmul, masked softmax, matmul);
  - ONNX Runtime: the standard ONNX Attention operator (opset 23,
    is_causal=1) on the CPU execution provider.
Every round runs our benchmark's prefill section once (BENCH --prefill-only,
one round: tiled, blas and the sgemm yardstick), then times each engine once
per T on the same shapes (float32, 12 heads of 64). Ratios are taken round
by round, then the median, so a busy machine slows both sides alike. Writes
BUILD_DIR/bench-framework.csv."""
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

TS = [256, 512, 1024, 2048, 4096]
HEADS, DH, ROUNDS = 12, 64, 5


def torch_engine():
    """-> (name, f(q, k, v) on numpy arrays (H, T, dh)), or None."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(os.cpu_count() or 1)
    fused = getattr(torch.nn.functional, "scaled_dot_product_attention", None)

    def run(q, k, v):
        q, k, v = (torch.from_numpy(x)[None] for x in (q, k, v))
        with torch.no_grad():
            if fused is not None:
                return fused(q, k, v, is_causal=True)[0].numpy()
            T = q.shape[-2]
            scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
            future = torch.ones(T, T, dtype=torch.bool).triu(1)
            return (torch.softmax(scores.masked_fill(future, float("-inf")), -1) @ v)[0].numpy()

    how = "scaled_dot_product_attention" if fused else "matmul + masked softmax"
    return f"torch {torch.__version__} {how}", run


def onnx_engine():
    """-> (name, f(q, k, v)) for ONNX Runtime's Attention operator, or None."""
    try:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError:
        return None
    sessions = {}

    def session(T):
        if T not in sessions:
            io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, HEADS, T, DH])
                  for n in "QKVY"]
            node = helper.make_node("Attention", ["Q", "K", "V"], ["Y"], is_causal=1,
                                    scale=1.0 / math.sqrt(DH))
            model = helper.make_model(helper.make_graph([node], "attention", io[:3], io[3:]),
                                      opset_imports=[helper.make_opsetid("", 23)])
            options = ort.SessionOptions()
            options.intra_op_num_threads = os.cpu_count() or 1
            sessions[T] = ort.InferenceSession(model.SerializeToString(), options,
                                               providers=["CPUExecutionProvider"])
        return sessions[T]

    def run(q, k, v):
        return session(q.shape[1]).run(None, {"Q": q[None], "K": k[None], "V": v[None]})[0][0]

    try:
        x = np.zeros((HEADS, 4, DH), np.float32)
        run(x, x, x)
    except Exception as e:  # an onnxruntime without opset 23's Attention
        print(f"bench-framework: ONNX Runtime {ort.__version__} skipped: {e}".splitlines()[0])
        return None
    return f"onnxruntime {ort.__version__} Attention (opset 23)", run


def reference(q, k, v):
    """Causal attention in float64 numpy, (H, T, dh) -> (H, T, dh)."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = q @ k.transpose(0, 2, 1) / math.sqrt(q.shape[-1])
    s[:, np.triu(np.ones(s.shape[1:], bool), 1)] = -np.inf
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v


def ours(bench, tmp):
    """One round of our prefill section -> {(T, kernel): ms}."""
    subprocess.run([bench, "--prefill-only", "--tmin", str(TS[0]), "--tmax", str(TS[-1]),
                    "--heads", str(HEADS), "--dh", str(DH), "--naive-max", "0", "--rounds", "1",
                    "--quiet", "--no-plot", "--dump", tmp], check=True)
    with open(os.path.join(tmp, "bench.csv")) as f:
        return {(int(r["T"]), r["kernel"]): float(r["median_ms"]) for r in csv.DictReader(f)
                if r["section"] == "prefill" and r["median_ms"]}


def timed(f, args):
    t0 = time.perf_counter()
    f(*args)
    return 1e3 * (time.perf_counter() - t0)


def main():
    bench, build = sys.argv[1], sys.argv[2]
    engines = [e for e in (torch_engine(), onnx_engine()) if e]
    if not engines:
        sys.exit("bench-framework: neither torch nor onnxruntime can be imported")
    rng = np.random.default_rng(1)
    inputs = {T: [rng.uniform(-1, 1, (HEADS, T, DH)).astype(np.float32) for _ in range(3)]
              for T in TS}
    want = reference(*inputs[TS[0]])
    for name, f in engines:
        got = f(*inputs[TS[0]])
        print(f"{name}: max |got - float64| / max |float64| = "
              f"{np.abs(got - want).max() / np.abs(want).max():.1e} at T = {TS[0]}")
        for T in TS:
            f(*inputs[T])  # warm-up
    log = []  # per round: {(T, name): ms}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(ROUNDS):
            ms = ours(bench, tmp)
            for name, f in engines:
                for T in TS:
                    ms[(T, name)] = timed(f, inputs[T])
            log.append(ms)
    report(build, engines, log)


def median(log, T, name, over=None):
    """median over the rounds of ms (or of ms(over) / ms: a share of `over`)"""
    return statistics.median(r[(T, over)] / r[(T, name)] if over else r[(T, name)] for r in log)


def report(build, engines, log):
    names = ["tiled", "blas", "sgemm"] + [n for n, _ in engines]
    print(f"median of {ROUNDS} rounds; 'of sgemm': the same round's sgemm time / the engine's "
          f"(> 1: faster than the yardstick); 'tiled is': the engine's time / tiled's (> 1: "
          f"tiled is faster); {HEADS} heads of {DH}, float32, causal")
    print(f"{'T':>6}  {'engine':<52} {'ms':>9} {'of sgemm':>9} {'tiled is':>13}")
    rows = []
    for T in TS:
        for n in names:
            ms, share = median(log, T, n), median(log, T, n, "sgemm")
            faster = median(log, T, "tiled", n) if n != "tiled" else 1.0
            print(f"{T:6d}  {n:<52} {ms:9.2f} {share:8.2f}x {faster:12.2f}x")
            rows.append([T, HEADS, DH, n, f"{ms:.4f}", f"{share:.4f}", f"{faster:.4f}"])
    out = os.path.join(build, "bench-framework.csv")
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["T", "heads", "dh", "engine", "median_ms", "of_sgemm", "tiled_faster"])
        w.writerows(rows)
    print(f"rows in {out}")


if __name__ == "__main__":
    main()
