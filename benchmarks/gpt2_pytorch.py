#!/usr/bin/python3
"""PyTorch beside bench_gpt2: GPT-2 (124M by default) with random weights,
written from GPT-2's equations as tests/reference/make_gpt2_reference.py
writes them (torch.nn.functional's layer_norm, gelu(approximate="tanh") and
softmax), float32, batch 1 greedy generation with a key/value cache of its
own, then a training step (batch 4, context 64, AdamW); peak RSS after each.

PyTorch gets the environment bench_models gives it (OMP_WAIT_POLICY=PASSIVE,
glibc keeping freed blocks): the script re-executes itself with it.

    /usr/bin/python3 benchmarks/gpt2_pytorch.py [--size 124M] [--tokens 64] [--threads 2] [--no-train]
"""
import argparse
import math
import os
import resource
import statistics
import sys
import time

ENV = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 40), "OMP_WAIT_POLICY": "PASSIVE"}
if any(os.environ.get(k) != v for k, v in ENV.items()):
    os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, **ENV))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SIZES = {"124M": (12, 768), "355M": (24, 1024), "774M": (36, 1280)}


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_weights(layers, d, vocab=50257, context=1024):
    g = torch.Generator().manual_seed(0)
    n = lambda *s: (torch.randn(*s, generator=g) * 0.02).requires_grad_()
    w = {"wte": n(vocab, d), "wpe": n(context, d), "ln_f.g": torch.ones(d, requires_grad=True),
         "ln_f.b": torch.zeros(d, requires_grad=True)}
    for l in range(layers):
        for k, shape in (("attn", (d, 3 * d)), ("proj", (d, d)), ("fc", (d, 4 * d)), ("mproj", (4 * d, d))):
            w[f"{l}.{k}.w"] = n(*shape)
            w[f"{l}.{k}.b"] = torch.zeros(shape[1], requires_grad=True)
        for k in ("ln1", "ln2"):
            w[f"{l}.{k}.g"] = torch.ones(d, requires_grad=True)
            w[f"{l}.{k}.b"] = torch.zeros(d, requires_grad=True)
    return w


def forward(w, ids, layers, d, cache=None, start=0):
    """ids [B, t] at positions start..start+t-1; cache: per layer [k, v] of [B, H, past, dh], grown in place."""
    B, t = ids.shape
    H = d // 64
    h = w["wte"][ids] + w["wpe"][start:start + t]
    for l in range(layers):
        a = F.layer_norm(h, (d,), w[f"{l}.ln1.g"], w[f"{l}.ln1.b"], 1e-5)
        q, k, v = (a @ w[f"{l}.attn.w"] + w[f"{l}.attn.b"]).split(d, dim=-1)
        q, k, v = (x.view(B, t, H, 64).transpose(1, 2) for x in (q, k, v))
        if cache is not None:
            if cache[l]:
                k = torch.cat([cache[l][0], k], dim=2)
                v = torch.cat([cache[l][1], v], dim=2)
            cache[l] = [k, v]
        s = q @ k.transpose(-1, -2) / 8.0
        T = k.shape[2]
        mask = torch.ones(t, T, dtype=torch.bool).tril(T - t)
        y = (s.masked_fill(~mask, float("-inf")).softmax(-1) @ v).transpose(1, 2).reshape(B, t, d)
        h = h + y @ w[f"{l}.proj.w"] + w[f"{l}.proj.b"]
        m = F.layer_norm(h, (d,), w[f"{l}.ln2.g"], w[f"{l}.ln2.b"], 1e-5)
        h = h + F.gelu(m @ w[f"{l}.fc.w"] + w[f"{l}.fc.b"], approximate="tanh") @ w[f"{l}.mproj.w"] + w[f"{l}.mproj.b"]
    return F.layer_norm(h, (d,), w["ln_f.g"], w["ln_f.b"], 1e-5) @ w["wte"].T


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--size", default="124M", choices=SIZES)
    p.add_argument("--tokens", type=int, default=64)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--train-steps", type=int, default=3)
    p.add_argument("--no-train", action="store_true")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    layers, d = SIZES[a.size]
    w = make_weights(layers, d)
    params = sum(x.numel() for x in w.values())
    print(f"PyTorch {torch.__version__}, GPT-2 {a.size} ({params / 1e6:.1f}M parameters), {a.threads} threads")

    def generate(n):
        ids = torch.tensor([[464, 3290, 286, 1204, 318, 257, 1310, 11]])
        cache = [None] * layers
        logits = forward(w, ids, layers, d, cache)
        out, pos = [], ids.shape[1]
        for _ in range(n):
            nxt = logits[0, -1].argmax().view(1, 1)
            out.append(int(nxt))
            if len(out) == n:
                break
            logits = forward(w, nxt, layers, d, cache, pos)
            pos += 1
        return out

    with torch.no_grad():
        generate(4)
        start = time.perf_counter()
        out = generate(a.tokens)
        seconds = time.perf_counter() - start
    print(f"generation, batch 1, greedy, KV cache: {len(out) / seconds:.1f} tokens/s ({len(out)} tokens, prompt 8)")
    print(f"  peak RSS after generation {peak_rss_mb():.0f} MB")
    if a.no_train:
        return
    opt = torch.optim.AdamW(list(w.values()), lr=1e-4, betas=(0.9, 0.95), weight_decay=0.1)
    g = torch.Generator().manual_seed(2)
    text = torch.randint(0, 50257, (4, 65), generator=g)
    times = []
    for i in range(a.train_steps + 1):
        start = time.perf_counter()
        opt.zero_grad()
        loss = F.cross_entropy(forward(w, text[:, :-1], layers, d).reshape(-1, 50257), text[:, 1:].reshape(-1))
        loss.backward()
        opt.step()
        if i:
            times.append(time.perf_counter() - start)
    print(f"training step, batch 4 x context 64, AdamW: {statistics.median(times):.3f} s")
    print(f"  peak RSS with training {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
