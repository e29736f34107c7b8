#!/usr/bin/env python3
"""PyTorch reference for bench_models (docs/performance.md).

The same workloads as benchmarks/bench_models.cpp, in PyTorch: the same models
(written out as Lectern builds them, pre-norm, from the notes; not
torch.nn.Transformer), shapes, hyperparameters, optimizers, schedules and data
generation, timed the same way (forward to the loss, backward, optimizer
separately and together; medians of the timed steps after warm-up steps; the
batch drawn before the clock starts).

PyTorch gets its best environment on these machines: glibc keeps freed blocks
of up to 32 MiB for reuse instead of mapping fresh pages for each (the largest
MALLOC_MMAP_THRESHOLD_ glibc accepts) and never trims the heap, OpenMP's idle
workers sleep instead of spinning on the cores the BLAS needs, and --threads
intra-op threads. The script re-executes itself with that environment when it
is not already set (OpenMP and malloc read it at start-up).

Prints one JSON line per measurement on stdout, flat objects that bench_models
reads (benchmarks/records.h); progress goes to stderr. Without --workload, each
workload runs in a process of its own, so that each peak RSS is that workload's.

    /usr/bin/python3 benchmarks/pytorch_reference.py [--workload NAME] [--steps 30] [--quick]
    /usr/bin/python3 benchmarks/pytorch_reference.py --workload vit_patch7 --train-epochs 5

The second trains the ViT as vit_fashion_mnist does and prints its test accuracy, so that the
two frameworks' accuracies after the same epochs can be set side by side.

Needs Debian's python3-torch (and numpy). Optional: neither the build nor the
tests need it.
"""
import argparse
import gzip
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time

WORKLOADS = ["copy_small", "copy_annotated", "vit_patch7", "vit_default", "decode_cached", "decode_recompute"]

BEST_ENVIRONMENT = {
    "MALLOC_MMAP_THRESHOLD_": str(32 << 20),  # glibc refuses larger values
    "MALLOC_TRIM_THRESHOLD_": str(1 << 40),
    "OMP_WAIT_POLICY": "PASSIVE",
}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workload", default="all", choices=["all"] + WORKLOADS)
    p.add_argument("--steps", type=int, default=None, help="timed training steps (default 30; --quick: 3)")
    p.add_argument("--warmup", type=int, default=None, help="untimed steps first (default 5; --quick: 1)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--quick", action="store_true", help="a short run: few steps, decoding 16 tokens only")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist", help="Fashion-MNIST's gzipped IDX files")
    p.add_argument("--train-epochs", type=int, default=0,
                   help="with a vit_ workload: train this many epochs as vit_fashion_mnist does (its schedule over "
                        "them) and print the test accuracy, instead of timing steps")
    a = p.parse_args()
    if a.train_epochs < 0 or (a.train_epochs > 0 and not a.workload.startswith("vit_")):
        p.error("--train-epochs takes a positive count and --workload vit_patch7 or vit_default")
    if a.steps is None:
        a.steps = 3 if a.quick else 30
    if a.warmup is None:
        a.warmup = 1 if a.quick else 5
    if a.steps < 1 or a.warmup < 0 or a.threads < 1:
        p.error("need --steps >= 1, --warmup >= 0, --threads >= 1")
    return a


def ensure_best_environment(threads):
    want = dict(BEST_ENVIRONMENT, OMP_NUM_THREADS=str(threads))
    if any(os.environ.get(k) != v for k, v in want.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, dict(os.environ, **want))


def emit(record):
    print(json.dumps(record), flush=True)


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux counts KiB


if __name__ == "__main__":
    ARGS = parse_args()  # --help and bad flags answer at once
    ensure_best_environment(ARGS.threads)  # before torch starts OpenMP

# ----------------------------------------------------------------------------
# The models, as Lectern builds them (models/, nn/)
# ----------------------------------------------------------------------------

import torch  # noqa: E402  (after the environment is settled)
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402


class MultiHeadAttention(nn.Module):
    """softmax(Q K^T / sqrt(d_k) + M) V over the heads, then W_O; dropout on P (001's full post)."""

    def __init__(self, d_model, heads, dropout):
        super().__init__()
        self.heads, self.d_k = heads, d_model // heads
        self.w_q, self.w_k, self.w_v, self.w_o = (nn.Linear(d_model, d_model) for _ in range(4))
        self.dropout = nn.Dropout(dropout)

    def split(self, x):  # [B, T, D] -> [B, H, T, d_k]
        return x.view(x.size(0), x.size(1), self.heads, self.d_k).transpose(1, 2)

    def attend(self, q, k, v, mask):  # mask: bool [B or 1, Tq or 1, Tk], True = may attend
        s = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            s = s.masked_fill(~mask.unsqueeze(1), float("-inf"))
        z = self.dropout(s.softmax(-1)) @ v  # [B, H, Tq, d_k]
        return self.w_o(z.transpose(1, 2).reshape(z.size(0), z.size(2), -1))

    def forward(self, query, key, value, mask=None):
        return self.attend(self.split(self.w_q(query)), self.split(self.w_k(key)), self.split(self.w_v(value)), mask)

    def forward_cached(self, x_new, cache):  # new positions attend to every cached one and themselves
        k, v = self.split(self.w_k(x_new)), self.split(self.w_v(x_new))
        if "k" in cache:
            k, v = torch.cat([cache["k"], k], 2), torch.cat([cache["v"], v], 2)
        cache["k"], cache["v"] = k, v
        return self.attend(self.split(self.w_q(x_new)), k, v, None)

    def forward_memory_cached(self, query, memory, cache, mask):  # the memory's keys and values, computed once
        if "k" not in cache:
            cache["k"], cache["v"] = self.split(self.w_k(memory)), self.split(self.w_v(memory))
        return self.attend(self.split(self.w_q(query)), cache["k"], cache["v"], mask)


class FeedForward(nn.Module):  # w_2(dropout(act(w_1 x)))
    def __init__(self, d_model, d_ff, dropout, activation):
        super().__init__()
        self.w_1, self.w_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.dropout, self.activation = nn.Dropout(dropout), activation

    def forward(self, x):
        return self.w_2(self.dropout(self.activation(self.w_1(x))))


class Sublayer(nn.Module):  # pre-norm (003): x + dropout(F(LN(x)))
    def __init__(self, d_model, dropout):
        super().__init__()
        self.norm, self.dropout = nn.LayerNorm(d_model), nn.Dropout(dropout)

    def forward(self, x, f):
        return x + self.dropout(f(self.norm(x)))


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout, activation=F.relu):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        self.feed_forward = FeedForward(d_model, d_ff, dropout, activation)
        self.sublayer = nn.ModuleList(Sublayer(d_model, dropout) for _ in range(2))

    def forward(self, x, mask):
        x = self.sublayer[0](x, lambda y: self.self_attn(y, y, y, mask))
        return self.sublayer[1](x, self.feed_forward)


class DecoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads, dropout)
        self.src_attn = MultiHeadAttention(d_model, heads, dropout)
        self.feed_forward = FeedForward(d_model, d_ff, dropout, F.relu)
        self.sublayer = nn.ModuleList(Sublayer(d_model, dropout) for _ in range(3))

    def forward(self, x, memory, src_mask, tgt_mask):
        x = self.sublayer[0](x, lambda y: self.self_attn(y, y, y, tgt_mask))
        x = self.sublayer[1](x, lambda y: self.src_attn(y, memory, memory, src_mask))
        return self.sublayer[2](x, self.feed_forward)

    def forward_cached(self, x_new, memory, src_mask, cache):
        x = self.sublayer[0](x_new, lambda y: self.self_attn.forward_cached(y, cache["self"]))
        x = self.sublayer[1](x, lambda y: self.src_attn.forward_memory_cached(y, memory, cache["src"], src_mask))
        return self.sublayer[2](x, self.feed_forward)


class PositionalEncoding(nn.Module):  # 004 eq. 15.57, then dropout
    def __init__(self, d_model, dropout, max_len=5000):
        super().__init__()
        pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe.float())
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, start=0):
        return self.dropout(x + self.pe[start:start + x.size(1)])


class Transformer(nn.Module):
    """001's EncoderDecoder, pre-norm, with the final LayerNorm of each stack and a log-softmax generator."""

    def __init__(self, vocab, layers, d_model, d_ff, heads, dropout):
        super().__init__()
        self.d_model = d_model
        self.src_embed, self.tgt_embed = nn.Embedding(vocab, d_model), nn.Embedding(vocab, d_model)
        self.src_pos, self.tgt_pos = PositionalEncoding(d_model, dropout), PositionalEncoding(d_model, dropout)
        self.encoder = nn.ModuleList(EncoderLayer(d_model, heads, d_ff, dropout) for _ in range(layers))
        self.decoder = nn.ModuleList(DecoderLayer(d_model, heads, d_ff, dropout) for _ in range(layers))
        self.encoder_norm, self.decoder_norm = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.proj = nn.Linear(d_model, vocab)
        for p in self.parameters():  # 001's make_model: Glorot for every matrix
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def embed(self, table, tokens):
        return table(tokens) * math.sqrt(self.d_model)

    def encode(self, src, src_mask):
        h = self.src_pos(self.embed(self.src_embed, src))
        for layer in self.encoder:
            h = layer(h, src_mask)
        return self.encoder_norm(h)

    def decode(self, memory, src_mask, tgt, tgt_mask):
        h = self.tgt_pos(self.embed(self.tgt_embed, tgt))
        for layer in self.decoder:
            h = layer(h, memory, src_mask, tgt_mask)
        return self.decoder_norm(h)

    def decode_cached(self, memory, src_mask, last_token, position, caches):  # [B, 1] -> [B, 1, D]
        h = self.tgt_pos(self.embed(self.tgt_embed, last_token), start=position)
        for layer, cache in zip(self.decoder, caches):
            h = layer.forward_cached(h, memory, src_mask, cache)
        return self.decoder_norm(h)

    def generator(self, x):
        return F.log_softmax(self.proj(x), -1)


class ViT(nn.Module):
    """002's equations: patches, [CLASS], E_pos, pre-norm GELU encoder layers, LN(z_L^0), head."""

    def __init__(self, patch, d_model=64, depth=4, heads=4, mlp=128, dropout=0.0, classes=10, image=28, channels=1):
        super().__init__()
        self.patch, patches = patch, (image // patch) ** 2
        self.proj = nn.Linear(patch * patch * channels, d_model)
        self.class_token = nn.Parameter(torch.randn(1, 1, d_model) * 0.02)
        self.position = nn.Parameter(torch.randn(patches + 1, d_model) * 0.02)
        self.layers = nn.ModuleList(EncoderLayer(d_model, heads, mlp, dropout, F.gelu) for _ in range(depth))
        self.norm, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, classes)

    def forward(self, images):
        B, C, H, W = images.shape
        P = self.patch
        x = images.reshape(B, C, H // P, P, W // P, P).permute(0, 2, 4, 3, 5, 1).reshape(B, -1, P * P * C)
        z = torch.cat([self.class_token.expand(B, -1, -1), self.proj(x)], 1) + self.position
        for layer in self.layers:
            z = layer(z, None)
        return self.head(self.norm(z[:, 0]))


# ----------------------------------------------------------------------------
# Data, losses, schedules (data/, nn/)
# ----------------------------------------------------------------------------

def copy_batch(vocab, length, batch, gen, start=1):
    """data/copy_task: the start symbol, then symbols uniform in 1..V-1; the target is the source."""
    src = torch.randint(1, vocab, (batch, length), generator=gen)
    src[:, 0] = start
    return src, src[:, :-1], src[:, 1:]


def padding_mask(tokens, pad=0):  # [B, 1, T]
    return (tokens != pad).unsqueeze(1)


def target_mask(tgt, pad=0):  # [B, T, T]: not padding, and not later
    t = tgt.size(1)
    return padding_mask(tgt, pad) & torch.ones(t, t, dtype=torch.bool).tril()


def label_smoothing_loss(log_probs, target, vocab, pad, eps):
    """LabelSmoothing of 001's full post: KL from the smoothed one-hot q to p, summed, over the non-padding tokens."""
    log_probs, target = log_probs.reshape(-1, vocab), target.reshape(-1)
    q = torch.full_like(log_probs, eps / (vocab - 2))
    q.scatter_(1, target.unsqueeze(1), 1 - eps)
    q[:, pad] = 0
    keep = target != pad
    q = q * keep.unsqueeze(1)
    return F.kl_div(log_probs, q, reduction="sum") / keep.sum()


def warmup_rate(step, d_model, warmup, factor):  # rate() of 001's full post
    step = max(step, 1)
    return factor * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def warmup_cosine(step, peak, warmup, total, min_lr):  # nn::WarmupCosineSchedule
    if step < warmup:
        return peak * (step + 1) / warmup
    if step >= total:
        return min_lr
    return min_lr + (peak - min_lr) * 0.5 * (1 + math.cos(math.pi * (step - warmup) / (total - warmup)))


def read_fashion_mnist(folder, split):  # split: "train" or "t10k"
    import numpy as np

    with gzip.open(os.path.join(folder, f"{split}-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)
    with gzip.open(os.path.join(folder, f"{split}-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)
    return images, torch.from_numpy(labels.astype(np.int64))


def load_fashion_mnist_train(folder):
    import numpy as np

    images, labels = read_fashion_mnist(folder, "train")
    # Mean and standard deviation of every pixel (data::pixel_statistics), from a histogram of the 256 values, so
    # that no float64 copy of the set inflates the peak RSS.
    counts = np.bincount(images.ravel(), minlength=256).astype(np.float64)
    values = np.arange(256, dtype=np.float64)
    mean = float((counts * values).sum() / counts.sum())
    std = math.sqrt(float((counts * values * values).sum() / counts.sum()) - mean * mean)
    images = torch.from_numpy(images.astype(np.float32))  # [N, 1, 28, 28] in [0, 255], as data::ImageSet
    return images, labels, mean, std


@torch.no_grad()
def test_accuracy(model, folder, mean, std):  # vit_fashion_mnist's evaluate(): the test set, normalised as training
    import numpy as np

    images, labels = read_fashion_mnist(folder, "t10k")
    images = (torch.from_numpy(images.astype(np.float32)) - mean) / std
    model.eval()
    correct = sum(int((model(images[i:i + 1000]).argmax(1) == labels[i:i + 1000]).sum())
                  for i in range(0, len(labels), 1000))
    model.train()
    return correct / len(labels)


def set_lr(optimizer, lr):
    for group in optimizer.param_groups:
        group["lr"] = lr


# ----------------------------------------------------------------------------
# Timing
# ----------------------------------------------------------------------------

def time_training(next_batch, forward, update, warmup, steps):
    forward_ms, backward_ms, optimizer_ms, step_ms = [], [], [], []
    for i in range(warmup + steps):
        next_batch()
        t0 = time.perf_counter()
        loss = forward()
        loss.item()
        t1 = time.perf_counter()
        loss.backward()
        t2 = time.perf_counter()
        update()
        t3 = time.perf_counter()
        if i >= warmup:
            forward_ms.append(1e3 * (t1 - t0))
            backward_ms.append(1e3 * (t2 - t1))
            optimizer_ms.append(1e3 * (t3 - t2))
            step_ms.append(1e3 * (t3 - t0))
    return {"forward_ms": statistics.median(forward_ms), "backward_ms": statistics.median(backward_ms),
            "optimizer_ms": statistics.median(optimizer_ms), "step_ms": statistics.median(step_ms),
            "step_mean_ms": statistics.fmean(step_ms)}


def training_record(workload, unit, batch, items, args, times):
    return dict({"framework": "pytorch", "kind": "train", "workload": workload, "unit": unit, "batch": batch,
                 "items_per_step": items, "warmup": args.warmup, "steps": args.steps},
                **times, peak_rss_mb=peak_rss_mb())


COPY_SETUPS = {  # examples/copy_task.cpp: the small configuration, and --preset annotated2022
    "copy_small": dict(d_model=64, d_ff=256, heads=4, lr_factor=1.0, warmup=200),
    "copy_annotated": dict(d_model=512, d_ff=2048, heads=8, lr_factor=0.5, warmup=400),
}
VOCAB, LENGTH, COPY_BATCH = 11, 10, 80


def bench_copy(workload, args):
    s = COPY_SETUPS[workload]
    model = Transformer(VOCAB, 2, s["d_model"], s["d_ff"], s["heads"], 0.1)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=0, betas=(0.9, 0.98), eps=1e-9, foreach=True)
    gen = torch.Generator().manual_seed(1)
    batch, step = {}, [0]

    def next_batch():
        batch["src"], batch["tgt_in"], batch["tgt_out"] = copy_batch(VOCAB, LENGTH, COPY_BATCH, gen)

    def forward():
        src, tgt_in = batch["src"], batch["tgt_in"]
        src_mask = padding_mask(src)
        out = model.decode(model.encode(src, src_mask), src_mask, tgt_in, target_mask(tgt_in))
        return label_smoothing_loss(model.generator(out), batch["tgt_out"], VOCAB, 0, 0.0)

    def update():
        step[0] += 1
        set_lr(opt, warmup_rate(step[0], s["d_model"], s["warmup"], s["lr_factor"]))
        opt.step()
        opt.zero_grad(set_to_none=True)

    times = time_training(next_batch, forward, update, args.warmup, args.steps)
    emit(training_record(workload, "tok", COPY_BATCH, 2 * COPY_BATCH * (LENGTH - 1), args, times))


VIT_PATCH = {"vit_patch7": 7, "vit_default": 4}
VIT_BATCH = 128


def bench_vit(workload, args):
    images, labels, mean, std = load_fashion_mnist_train(args.data)
    model = ViT(VIT_PATCH[workload])
    model.train()
    lr, min_lr, steps_per_epoch = 3e-3, 1e-5, (len(labels) + VIT_BATCH - 1) // VIT_BATCH
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.05, foreach=True)
    gen = torch.Generator().manual_seed(1)
    batch, state = {}, {"order": torch.randperm(len(labels), generator=gen), "pos": 0, "step": 0}

    def next_batch():  # data::ImageBatches: reshuffled each epoch, normalised with the training set's statistics
        if state["pos"] >= len(labels):
            state["order"], state["pos"] = torch.randperm(len(labels), generator=gen), 0
        index = state["order"][state["pos"]:state["pos"] + VIT_BATCH]
        state["pos"] += VIT_BATCH
        batch["images"], batch["labels"] = (images[index] - mean) / std, labels[index]

    def forward():
        return F.cross_entropy(model(batch["images"]), batch["labels"], label_smoothing=0.1)

    epochs = args.train_epochs or 5  # the schedule's length: vit_fashion_mnist's 5 epochs

    def update():
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        set_lr(opt, warmup_cosine(state["step"], lr, 400, epochs * steps_per_epoch, min_lr))
        state["step"] += 1
        opt.step()
        opt.zero_grad(set_to_none=True)

    if args.train_epochs:
        start = time.perf_counter()
        for epoch in range(1, epochs + 1):
            for _ in range(steps_per_epoch):
                next_batch()
                forward().backward()
                update()
            print(f"pytorch_reference: {workload} epoch {epoch}/{epochs}", file=sys.stderr, flush=True)
        seconds = time.perf_counter() - start
        emit({"framework": "pytorch", "kind": "accuracy", "workload": workload, "epochs": epochs,
              "train_seconds": seconds, "test_accuracy": test_accuracy(model, args.data, mean, std),
              "peak_rss_mb": peak_rss_mb()})
        return
    times = time_training(next_batch, forward, update, args.warmup, args.steps)
    emit(training_record(workload, "img", VIT_BATCH, VIT_BATCH, args, times))


@torch.no_grad()
def greedy_decode(model, src, src_mask, max_len, cached, start=1):
    """models/greedy_decode: encode once, then max_len - 1 arg-max steps, with the cache or re-decoding the prefix."""
    memory = model.encode(src, src_mask)
    tokens = torch.full((src.size(0), max_len), start, dtype=torch.long)
    scores = torch.zeros(src.size(0), max_len - 1)
    caches = [{"self": {}, "src": {}} for _ in model.decoder]
    for t in range(1, max_len):
        if cached:
            out = model.decode_cached(memory, src_mask, tokens[:, t - 1:t], t - 1, caches)[:, -1]
        else:
            causal = torch.ones(t, t, dtype=torch.bool).tril().unsqueeze(0)
            out = model.decode(memory, src_mask, tokens[:, :t], causal)[:, t - 1]
        log_probs = model.generator(out)  # [B, V]
        best = log_probs.argmax(-1)
        tokens[:, t] = best
        scores[:, t - 1] = log_probs.gather(1, best.unsqueeze(1)).squeeze(1)
    return tokens, scores


def median_seconds(f, runs):  # benchmarks/machine.h median_seconds: a warm-up call, then the median of `runs`
    f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_decode(workload, args):
    s = COPY_SETUPS["copy_small"]
    model = Transformer(VOCAB, 2, s["d_model"], s["d_ff"], s["heads"], 0.1)
    model.eval()
    gen = torch.Generator().manual_seed(1)
    cached = workload == "decode_cached"
    for n in [16] if args.quick else [16, 64, 256]:
        runs = 1 if args.quick else max(5, 1280 // n)  # as workloads.cpp bench_decode: more runs of the short decodings
        src = copy_batch(VOCAB, n + 1, 1, gen)[0]
        mask = padding_mask(src)
        seconds = median_seconds(lambda: greedy_decode(model, src, mask, n + 1, cached), runs)
        emit({"framework": "pytorch", "kind": "decode", "workload": workload, "decoding": workload[len("decode_"):],
              "tokens": n, "batch": 1, "runs": runs, "ms_per_token": 1e3 * seconds / n, "peak_rss_mb": peak_rss_mb()})


def run_one(args):
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    emit({"framework": "pytorch", "kind": "meta", "torch": torch.__version__, "threads": torch.get_num_threads(),
          "environment": " ".join(f"{k}={os.environ[k]}" for k in sorted(BEST_ENVIRONMENT) + ["OMP_NUM_THREADS"]),
          "optimizer": "torch.optim Adam/AdamW, foreach=True"})
    if args.workload.startswith("copy_"):
        bench_copy(args.workload, args)
    elif args.workload.startswith("vit_"):
        bench_vit(args.workload, args)
    else:
        bench_decode(args.workload, args)


def run_all(args):
    flags = ["--steps", str(args.steps), "--warmup", str(args.warmup), "--threads", str(args.threads),
             "--data", args.data] + (["--quick"] if args.quick else [])
    status = 0
    for w in WORKLOADS:
        print(f"pytorch_reference: {w}", file=sys.stderr, flush=True)
        child = subprocess.run([sys.executable, os.path.abspath(__file__), "--workload", w] + flags,
                               stdout=subprocess.PIPE, text=True)
        sys.stdout.write(child.stdout)
        sys.stdout.flush()
        status = status or child.returncode
    return status


def main(args):
    if args.workload == "all":
        return run_all(args)
    run_one(args)
    return 0


if __name__ == "__main__":
    sys.exit(main(ARGS))
