#!/usr/bin/env python3
"""Chapter 13's first training steps repeated in PyTorch (claim G1), and the
same model timed in PyTorch for `make bench-train`.

usage: check_training.py DIR [TOLERANCE]
       check_training.py --bench CSV L H D T B STEPS THREADS [VOCAB]

DIR is what `ch13_language_model --dump DIR` writes: init/ and after/ (the
weights before the first step and after the last checked one, one .npy per
tensor, with shape.npy and vocab.npy), batches.npy (steps, B, T + 1 token
ids), rates.npy (the learning rate C used at each step), losses.npy (the
loss C computed at each step), config.npy (beta1, beta2, eps, weight decay,
clipping norm, B, T, steps, post-norm, then the schedule: peak rate, final
rate, warm-up steps, decay steps), starts.npy (where every batch of the
run starts in the corpus, steps x B) and windows.npy (the evaluation
windows' starts: held out, then training); and for the float32 path
after32/, losses32.npy and grads32.npy (its gradient at step 0, every
tensor end to end). The model is written here from the same formulas,
with torch.optim.AdamW (weight decay on the matrices only),
torch.nn.utils.clip_grad_norm_ and the learning-rate schedule computed here
from its formula (rates.npy is only compared with it, never used). In
float64, every step's loss and every tensor after the last step are
compared with C's float64 path (tolerance default 1e-9, relative); in
float32, the losses, the gradient at step 0 and the change of the weights
with C's float32 path (tolerances in check32). Each comparison has a
control that must fail: a step left out, and the schedule one step late.
The exit status is 1 if any comparison exceeds its tolerance or a control
passes.

With --bench it times training steps of the same model on random tokens in
float32, eager (the median of each part over STEPS steps after a warm-up),
and appends one line to CSV (the columns of bench/bench_train.c).
"""
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

OLD_EPS = 1e-5  # the norms' epsilon of a checkpoint without eps.npy (checkpoint.h)
BLOCK = ["Wq", "Wk", "Wv", "Wo", "ln1_g", "ln1_b", "W1", "b1", "W2", "b2", "ln2_g", "ln2_b"]


def tensor_names(layers):
    """The checkpoint's tensors, in gpt_tensors' order."""
    names = ["tok_emb", "pos_emb"]
    for l in range(layers):
        names += ["l%d.%s" % (l, n) for n in BLOCK]
    return names + ["lnf_g", "lnf_b", "Wout", "bout"]


def load_weights(directory, dtype):
    shape = np.load(os.path.join(directory, "shape.npy"))
    vocab, context, dim, heads, layers, hidden, post = (int(v) for v in shape)
    eps_file = os.path.join(directory, "eps.npy")
    eps = float(np.load(eps_file)[0]) if os.path.exists(eps_file) else OLD_EPS
    params = {}
    for name in tensor_names(layers):
        value = np.load(os.path.join(directory, name + ".npy"))
        params[name] = torch.tensor(value, dtype=dtype, requires_grad=True)
    return params, dict(vocab=vocab, context=context, dim=dim, heads=heads, layers=layers,
                        hidden=hidden, post=bool(post), eps=eps)


def attention(x, p, l, heads):
    """Causal multi-head attention, head j on columns j*dk .. of Q, K, V: (B, T, d)."""
    B, T, d = x.shape
    dk = d // heads
    split = lambda m: m.view(B, T, heads, dk).transpose(1, 2)
    q, k, v = (split(x @ p["l%d.%s" % (l, w)].T) for w in ("Wq", "Wk", "Wv"))
    scores = q @ k.transpose(-1, -2) / math.sqrt(dk)
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    weights = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
    c = (weights @ v).transpose(1, 2).reshape(B, T, d)
    return c @ p["l%d.Wo" % l].T


def norm(x, p, gain, bias, eps):
    return F.layer_norm(x, x.shape[-1:], p[gain], p[bias], eps)


def mlp(x, p, l):
    h = torch.relu(x @ p["l%d.W1" % l].T + p["l%d.b1" % l])
    return h @ p["l%d.W2" % l].T + p["l%d.b2" % l]


def forward(p, cfg, ids):
    """ids: (B, T) -> logits (B, T, V), as gpt_forward computes them."""
    T, eps = ids.shape[1], cfg["eps"]
    x = p["tok_emb"][ids] + p["pos_emb"][:T]
    for l in range(cfg["layers"]):
        g1, b1, g2, b2 = ("l%d.%s" % (l, n) for n in ("ln1_g", "ln1_b", "ln2_g", "ln2_b"))
        if cfg["post"]:
            x = norm(x + attention(x, p, l, cfg["heads"]), p, g1, b1, eps)
            x = norm(x + mlp(x, p, l), p, g2, b2, eps)
        else:
            x = x + attention(norm(x, p, g1, b1, eps), p, l, cfg["heads"])
            x = x + mlp(norm(x, p, g2, b2, eps), p, l)
    return norm(x, p, "lnf_g", "lnf_b", eps) @ p["Wout"].T + p["bout"]


def optimiser(p, beta1, beta2, eps, decay):
    matrices = [t for t in p.values() if t.dim() == 2]
    others = [t for t in p.values() if t.dim() != 2]
    return torch.optim.AdamW([{"params": matrices, "weight_decay": decay},
                              {"params": others, "weight_decay": 0.0}],
                             lr=0.0, betas=(beta1, beta2), eps=eps)


def relative(a, b):
    top = float(np.max(np.abs(b)))
    gap = float(np.max(np.abs(a - b)))
    return gap / top if top > 0 else gap


def train_step(p, cfg, opt, batch, rate, clip):
    ids, targets = batch[:, :-1], batch[:, 1:]
    logits = forward(p, cfg, ids)
    loss = F.cross_entropy(logits.reshape(-1, cfg["vocab"]), targets.reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(list(p.values()), clip)
    for group in opt.param_groups:
        group["lr"] = rate
    opt.step()
    return loss.item()


def rate_at(s, peak, low, warmup, decay):
    """The learning rate of step s (from 0), from its formula: a linear warm-up to the peak
    over `warmup` steps, then a half cosine down to `low` at step `decay`, then `low`."""
    if s < warmup:
        return peak * (s + 1) / (warmup + 1)
    if s >= decay:
        return low
    return low + (peak - low) * (1 + math.cos(math.pi * (s - warmup) / (decay - warmup))) / 2


def schedule(directory, late=0):
    """config.npy -> the rate of each checked step from rate_at (`late`: steps it runs late,
    the control), and the largest relative difference from the rates C used."""
    cfg = np.load(os.path.join(directory, "config.npy"))
    steps, (peak, low, warmup, decay) = int(cfg[7]), (float(v) for v in cfg[9:13])
    rates = [rate_at(s + late, peak, low, warmup, decay) for s in range(steps)]
    used = np.load(os.path.join(directory, "rates.npy"))
    return rates, relative(used, np.array(rates))


def run_steps(p, cfg, directory, c_losses, skip=None, late=0, verbose=False):
    """The C run's batches and AdamW settings from directory, with the rates of schedule(),
    stepped in PyTorch on p (leaving out step `skip`; the schedule `late` steps late) -> the
    largest relative difference of a loss from c_losses, and the number of steps."""
    beta1, beta2, eps, decay, clip = np.load(os.path.join(directory, "config.npy"))[:5]
    batches = torch.tensor(np.load(os.path.join(directory, "batches.npy")), dtype=torch.long)
    rates, _ = schedule(directory, late)
    opt = optimiser(p, beta1, beta2, eps, decay)
    worst_loss = 0.0
    for s in range(len(rates)):
        if s == skip:
            continue
        loss = train_step(p, cfg, opt, batches[s], rates[s], float(clip))
        gap = abs(loss - c_losses[s]) / abs(c_losses[s])
        worst_loss = max(worst_loss, gap)
        if verbose:
            print("step %2d  loss C %.12f  PyTorch %.12f  relative difference %.2e"
                  % (s, c_losses[s], loss, gap))
    return worst_loss, len(rates)


def replay(directory, skip=None, late=0, verbose=False):
    """The C run's steps in PyTorch (leaving out step `skip`, the schedule `late` steps late)
    -> the largest relative differences of a loss and of a tensor after the last step, and
    that tensor's name."""
    torch.set_default_dtype(torch.float64)
    p, cfg = load_weights(os.path.join(directory, "init"), torch.float64)
    c_losses = np.load(os.path.join(directory, "losses.npy"))
    worst_loss, steps = run_steps(p, cfg, directory, c_losses, skip, late, verbose)
    worst_param, where = 0.0, ""
    for name, t in p.items():
        want = np.load(os.path.join(directory, "after", name + ".npy"))
        gap = relative(want, t.detach().numpy())
        if gap >= worst_param:
            worst_param, where = gap, name
    return worst_loss, worst_param, where, steps


def float32_run(directory, skip=None, late=0):
    """The float32 path's steps in PyTorch float32 -> the largest relative difference of a
    loss, the worst relative norm of a tensor's gradient at step 0, and what the steps changed
    in the weights against what C's changed (relative norm of the difference)."""
    torch.set_default_dtype(torch.float32)
    p, cfg = load_weights(os.path.join(directory, "init"), torch.float32)
    init = {n: t.detach().clone() for n, t in p.items()}
    batches = torch.tensor(np.load(os.path.join(directory, "batches.npy")), dtype=torch.long)
    c_losses = np.load(os.path.join(directory, "losses32.npy"))
    c_grads = np.load(os.path.join(directory, "grads32.npy"))
    ids, targets = batches[0][:, :-1], batches[0][:, 1:]
    F.cross_entropy(forward(p, cfg, ids).reshape(-1, cfg["vocab"]), targets.reshape(-1)).backward()
    worst_grad, at = 0.0, 0
    for name, t in p.items():
        want = t.grad.detach().numpy().ravel()
        got = c_grads[at:at + want.size]
        at += want.size
        worst_grad = max(worst_grad, float(np.linalg.norm(got - want) / np.linalg.norm(want)))
        t.grad = None
    worst_loss, steps = run_steps(p, cfg, directory, c_losses, skip, late)
    diff = moved = 0.0
    for name, t in p.items():
        c_after = np.load(os.path.join(directory, "after32", name + ".npy"))
        start = init[name].numpy().astype(np.float64)
        torch_after = t.detach().numpy().astype(np.float64)
        diff += float(np.sum((c_after - torch_after) ** 2))
        moved += float(np.sum((torch_after - start) ** 2))
    return worst_loss, worst_grad, math.sqrt(diff / moved), steps


def check32(directory):
    """The float32 comparison, llm.c's test_gpt2 for this model. Tolerances: a loss within
    1e-5 (relative); each tensor's gradient at the initial weights within 1e-4 (relative norm:
    both sides are float32 sums of up to B*T terms, some 1e-6 from the exact value); and the
    weights' change over the steps within 1e-2 (relative norm), the bound of chapter 13's
    G1 against the float64 path, for the same reason: AdamW moves an entry by about the rate
    whatever the size of its gradient, so an entry whose gradient is 0 on one side and a
    rounding error on the other moves on one side only."""
    loss, grad, change, steps = float32_run(directory)
    print("float32: largest relative difference of a loss over %d steps: %.2e (bound 1e-5)"
          % (steps, loss))
    print("float32: worst relative difference of a tensor's gradient at step 0: %.2e (bound 1e-4)"
          % grad)
    print("float32: what the steps changed, C against PyTorch (relative norm): %.2e (bound 1e-2)"
          % change)
    ok = loss <= 1e-5 and grad <= 1e-4 and change <= 1e-2
    print("float32 %s: PyTorch float32 %s the C float32 path" % ("PASS" if ok else "FAIL",
                                                                 "repeats" if ok else "does not repeat"))
    holds = False
    for what, skip, late in (("leaves out step %d" % (steps // 2), steps // 2, 0),
                             ("its schedule one step late", None, 1)):
        _, _, control, _ = float32_run(directory, skip, late)
        print("   control (PyTorch float32 %s): change against C %.3g: %s"
              % (what, control, "HOLDS, a defect" if control <= 1e-2 else "fails, as it should"))
        holds = holds or control <= 1e-2
    return ok and not holds


def check(directory, tolerance):
    _, rate_gap = schedule(directory)
    print("the schedule's formula against the rates C used: largest relative difference %.2e"
          % rate_gap)
    worst_loss, worst_param, where, steps = replay(directory, verbose=True)
    print("largest relative difference of a loss over %d steps: %.2e" % (steps, worst_loss))
    print("largest relative difference of a tensor after them: %.2e (%s)" % (worst_param, where))
    ok = worst_loss <= tolerance and worst_param <= tolerance
    print("G1 %s: PyTorch %s the C training to %g relative"
          % ("PASS" if ok else "FAIL", "repeats" if ok else "does not repeat", tolerance))
    holds = False
    for what, skip, late in (("leaves out step %d" % (steps // 2), steps // 2, 0),
                             ("runs its schedule one step late", None, 1)):
        _, control, where, _ = replay(directory, skip, late)
        print("   control (PyTorch %s): largest tensor difference %.3g (%s): %s"
              % (what, control, where,
                 "HOLDS, a defect" if control <= tolerance else "fails, as it should"))
        holds = holds or control <= tolerance
    ok32 = check32(directory)
    return 0 if ok and not holds and ok32 else 1


def random_model(cfg, dtype, generator):
    d, m, V = cfg["dim"], cfg["hidden"], cfg["vocab"]
    shapes = {"tok_emb": (V, d), "pos_emb": (cfg["context"], d), "lnf_g": (d,), "lnf_b": (d,),
              "Wout": (V, d), "bout": (V,)}
    for l in range(cfg["layers"]):
        for n in BLOCK:
            shapes["l%d.%s" % (l, n)] = {"W1": (m, d), "b1": (m,), "W2": (d, m)}.get(
                n, (d, d) if n.startswith("W") else (d,))
    return {n: (0.02 * torch.randn(s, generator=generator, dtype=dtype)).requires_grad_()
            for n, s in shapes.items()}


def timed_step(p, cfg, opt, batch, rate, clip):
    """train_step's work, timed in its three parts, and its CPU time (seconds)."""
    c0, t0 = time.process_time(), time.perf_counter()
    ids, targets = batch[:, :-1], batch[:, 1:]
    opt.zero_grad()
    loss = F.cross_entropy(forward(p, cfg, ids).reshape(-1, cfg["vocab"]), targets.reshape(-1))
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    torch.nn.utils.clip_grad_norm_(list(p.values()), clip)
    for group in opt.param_groups:
        group["lr"] = rate
    opt.step()
    return t1 - t0, t2 - t1, time.perf_counter() - t2, time.process_time() - c0


def bench(csv, layers, heads, dim, context, batch, steps, threads, vocab=114):
    """PyTorch float32 eager on the model of bench_train.c: the medians over `steps`
    timed steps after one warm-up, in bench_train.c's columns."""
    torch.set_num_threads(threads)
    cfg = dict(vocab=vocab, context=context, dim=dim, heads=heads, layers=layers,
               hidden=4 * dim, post=False, eps=OLD_EPS)
    torch.set_default_dtype(torch.float32)
    gen = torch.Generator().manual_seed(1)
    p = random_model(cfg, torch.float32, gen)
    opt = optimiser(p, 0.9, 0.99, 1e-8, 0.1)
    data = torch.randint(0, vocab, (steps + 1, batch, context + 1), generator=gen)
    timed_step(p, cfg, opt, data[0], 1e-3, 1.0)  # warm-up, not timed
    parts = np.array([timed_step(p, cfg, opt, data[s + 1], 1e-3, 1.0) for s in range(steps)])
    fwd, bwd, optim = (float(np.median(parts[:, k])) for k in range(3))
    step = float(np.median(parts[:, :3].sum(axis=1)))
    cpu = float(np.median(parts[:, 3]))
    tokens = batch * context / step
    with open(csv, "a") as out:
        out.write("pytorch %s,float32,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.0f,%d,,,%.3f\n"
                  % (torch.__version__, threads, layers, dim, heads, context, batch,
                     1e3 * fwd, 1e3 * bwd, 1e3 * optim, 1e3 * step, tokens, peak_mb(), 1e3 * cpu))
    print("  PyTorch %s float32 eager (%d threads): %.1f ms a step (forward %.1f, backward %.1f, "
          "optimiser %.1f), %.0f tokens/s, peak memory %d MB; %.1f ms of CPU a step"
          % (torch.__version__, threads, 1e3 * step, 1e3 * fwd, 1e3 * bwd, 1e3 * optim, tokens,
             peak_mb(), 1e3 * cpu))
    return 0


def peak_mb():
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


if __name__ == "__main__":
    if len(sys.argv) in (10, 11) and sys.argv[1] == "--bench":
        sys.exit(bench(sys.argv[2], *(int(v) for v in sys.argv[3:])))
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1], float(sys.argv[2]) if len(sys.argv) == 3 else 1e-9))
