#!/usr/bin/env python3
"""make bench-framework: a mainstream framework's CPU attention on the shapes
of `make bench`, added to its table as a ratio.

Reads BUILD/bench.csv, times the framework's causal attention (PyTorch's
scaled_dot_product_attention, or its own ops where that is missing; float32,
the same T, H, dh) with the median of the same number of
repeats, prints the bench table with a column "framework / kernel" (how many
times faster than the framework each kernel is), and writes the framework's
rows to BUILD/bench-framework.csv."""
import csv
import math
import os
import statistics
import sys
import time

import torch


def causal_attention():
    """The framework's fused causal attention (PyTorch 2), or, on older
    versions such as Debian's 1.13, the same computation in its own ops:
    scores, mask, softmax and weighted sum over the full T x T matrix."""
    fused = getattr(torch.nn.functional, "scaled_dot_product_attention", None)
    if fused is not None:
        return "scaled_dot_product_attention", lambda q, k, v: fused(q, k, v, is_causal=True)

    def materialised(q, k, v):
        T, dh = q.shape[-2], q.shape[-1]
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(dh)
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        return torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1) @ v

    return "matmul + masked softmax", materialised


def framework_ms(T, H, dh, repeats, f):
    q, k, v = (torch.rand(1, H, T, dh, dtype=torch.float32) * 2 - 1 for _ in range(3))
    with torch.no_grad():
        f(q, k, v)  # warm-up
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            f(q, k, v)
            times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def main():
    path = sys.argv[1]
    rows = list(csv.DictReader(open(path)))
    if not rows:
        sys.exit(f"bench-framework: {path} has no rows; run make bench")
    shapes = sorted({(int(r["T"]), int(r["heads"]), int(r["dh"]), int(r["repeats"]))
                     for r in rows if r["kernel"] == "sgemm"})
    torch.set_num_threads(os.cpu_count() or 1)
    name, f = causal_attention()
    ms = {(T, H, dh): framework_ms(T, H, dh, reps, f) for T, H, dh, reps in shapes}
    print(f"framework: torch {torch.__version__}, {name}, {torch.get_num_threads()} threads")
    print(f"{'T':>6}  {'kernel':<11} {'median ms':>11} {'framework / kernel':>20}")
    for T, H, dh, _ in shapes:
        f = ms[(T, H, dh)]
        print(f"{T:6d}  {'framework':<11} {f:11.2f} {1.0:20.2f}")
        for r in rows:
            if int(r["T"]) == T and r["kernel"] != "sgemm":
                print(f"{T:6d}  {r['kernel']:<11} {float(r['median_ms']):11.2f} "
                      f"{f / float(r['median_ms']):20.2f}")
    out = os.path.join(os.path.dirname(path), "bench-framework.csv")
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["T", "heads", "dh", "framework_median_ms"])
        for (T, H, dh), f in sorted(ms.items()):
            w.writerow([T, H, dh, f"{f:.4f}"])
    print(f"framework rows in {out}")


if __name__ == "__main__":
    main()
