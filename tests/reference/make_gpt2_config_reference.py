#!/usr/bin/python3
"""Writes the reference of a GPT-2 configured by its config.json: a tiny
GPT-2-shaped model whose shapes do not tell its configuration -- 2 heads of 32
(not GPT-2's 64), layer-norm eps 1e-3, the exact erf GELU ("gelu"), an
untied head, n_inner 96 -- as Hugging Face stores it (model.safetensors, F32,
beside config.json), and its logits on a fixed sequence.

The forward is GPT-2's equations written here in plain Python floats (double
precision), nanoGPT's order of operations, from the configuration's fields: it
shares no code with Lectern and needs neither PyTorch nor NumPy (this machine
has neither), so anyone can rerun it. The safetensors file is written by hand
from the documented layout (an 8-byte little-endian header length, the JSON
header, the raw little-endian data).

Run from the repository's root:  /usr/bin/python3 tests/reference/make_gpt2_config_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import json
import math
import pathlib
import random
import struct

OUT = pathlib.Path(__file__).resolve().parent / "data"
NAME = "gpt2_heads2"

# The config.json, as transformers writes one, with fields the loader does not read.
CONFIG = {
    "activation_function": "gelu",
    "architectures": ["GPT2LMHeadModel"],
    "attn_pdrop": 0.1,
    "bos_token_id": 0,
    "embd_pdrop": 0.1,
    "eos_token_id": 0,
    "layer_norm_epsilon": 1e-3,
    "model_type": "gpt2",
    "n_embd": 64,
    "n_head": 2,
    "n_inner": 96,
    "n_layer": 2,
    "n_positions": 16,
    "resid_pdrop": 0.1,
    "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
    "tie_word_embeddings": False,
    "vocab_size": 61,
}
V, P, D = CONFIG["vocab_size"], CONFIG["n_positions"], CONFIG["n_embd"]
H, L, F, EPS = CONFIG["n_head"], CONFIG["n_layer"], CONFIG["n_inner"], CONFIG["layer_norm_epsilon"]


def f32(x):
    """x rounded to float32, as the file stores it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def matrix(rng, rows, cols, scale, mean=0.0):
    return [[f32(rng.gauss(mean, scale)) for _ in range(cols)] for _ in range(rows)]


def vector(rng, n, scale, mean=0.0):
    return matrix(rng, 1, n, scale, mean)[0]


def matmul(x, w):
    """x [T][n] @ w [n][m]: GPT-2's Conv1D, y = x W."""
    columns = list(zip(*w))
    return [[sum(a * b for a, b in zip(row, col)) for col in columns] for row in x]


def add_bias(x, b):
    return [[v + c for v, c in zip(row, b)] for row in x]


def layer_norm(x, g, b):
    out = []
    for row in x:
        mu = sum(row) / len(row)
        var = sum((v - mu) ** 2 for v in row) / len(row)
        out.append([(v - mu) / math.sqrt(var + EPS) * gi + bi for v, gi, bi in zip(row, g, b)])
    return out


def gelu(x):  # the exact GELU, x Phi(x): config "gelu"
    return [[0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in row] for row in x]


def attention(a, w):
    """Causal self-attention, H heads of D / H columns each (q, k, v split as c_attn's columns)."""
    T, dh = len(a), D // H
    qkv = add_bias(matmul(a, w["attn.c_attn.weight"]), w["attn.c_attn.bias"])
    y = [[0.0] * D for _ in range(T)]
    for h in range(H):
        q = [row[h * dh:(h + 1) * dh] for row in qkv]
        k = [row[D + h * dh:D + (h + 1) * dh] for row in qkv]
        v = [row[2 * D + h * dh:2 * D + (h + 1) * dh] for row in qkv]
        for t in range(T):
            scores = [sum(qi * ki for qi, ki in zip(q[t], k[s])) / math.sqrt(dh) for s in range(t + 1)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for j in range(dh):
                y[t][h * dh + j] = sum(wt * v[s][j] for s, wt in enumerate(weights)) / total
    return add_bias(matmul(y, w["attn.c_proj.weight"]), w["attn.c_proj.bias"])


def forward(w, ids):
    """ids [T] -> logits [T][V]: pre-norm blocks, then ln_f and the untied lm_head [V, D]."""
    h = [[e + p for e, p in zip(w["wte.weight"][i], w["wpe.weight"][t])] for t, i in enumerate(ids)]
    for l in range(L):
        b = {k[len(f"h.{l}."):]: v for k, v in w.items() if k.startswith(f"h.{l}.")}
        a = attention(layer_norm(h, b["ln_1.weight"], b["ln_1.bias"]), b)
        h = [[x + y for x, y in zip(r, s)] for r, s in zip(h, a)]
        m = gelu(add_bias(matmul(layer_norm(h, b["ln_2.weight"], b["ln_2.bias"]), b["mlp.c_fc.weight"]), b["mlp.c_fc.bias"]))
        m = add_bias(matmul(m, b["mlp.c_proj.weight"]), b["mlp.c_proj.bias"])
        h = [[x + y for x, y in zip(r, s)] for r, s in zip(h, m)]
    return matmul(layer_norm(h, w["ln_f.weight"], w["ln_f.bias"]), list(map(list, zip(*w["lm_head.weight"]))))


def write_safetensors(path, tensors):
    """tensors: name -> (shape, flat list of floats), stored F32, names sorted."""
    header, blobs, at = {}, [], 0
    for name in sorted(tensors):
        shape, values = tensors[name]
        raw = struct.pack(f"<{len(values)}f", *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def write_reference(path, tensors):
    """make_reference.py's format: 'lectern-reference 1', then per tensor
    '<name> f64|i64 <ndim> <sizes...>' and its values, 17 significant digits."""
    lines = ["lectern-reference 1"]
    for key, (kind, shape, values) in tensors.items():
        lines.append(" ".join([key, kind, str(len(shape))] + [str(s) for s in shape]))
        lines.append(" ".join(str(v) if kind == "i64" else repr(float(v)) for v in values))
    path.write_text("\n".join(lines) + "\n")


def main():
    rng = random.Random(38)
    # Wider than GPT-2's 0.02 initialisation, so that a wrong equation shows in the logits.
    w = {"wte.weight": matrix(rng, V, D, 0.2), "wpe.weight": matrix(rng, P, D, 1.0),
         "ln_f.weight": vector(rng, D, 0.2, 1.0), "ln_f.bias": vector(rng, D, 0.1),
         "lm_head.weight": matrix(rng, V, D, 0.2)}
    for l in range(L):
        p = f"h.{l}."
        for ln in ("ln_1", "ln_2"):
            w[p + ln + ".weight"] = vector(rng, D, 0.2, 1.0)
            w[p + ln + ".bias"] = vector(rng, D, 0.1)
        for name, fan_in, fan_out in (("attn.c_attn", D, 3 * D), ("attn.c_proj", D, D),
                                      ("mlp.c_fc", D, F), ("mlp.c_proj", F, D)):
            w[p + name + ".weight"] = matrix(rng, fan_in, fan_out, 1 / math.sqrt(fan_in))
            w[p + name + ".bias"] = vector(rng, fan_out, 0.1)

    tensors = {}
    for name, value in w.items():
        rows = value if isinstance(value[0], list) else [value]
        shape = [len(value), len(value[0])] if isinstance(value[0], list) else [len(value)]
        tensors[name] = (shape, [v for row in rows for v in row])
    for l in range(L):  # the causal-mask buffer GPT-2 checkpoints carry; the loader ignores it
        tensors[f"h.{l}.attn.bias"] = ([1, 1, P, P], [1.0 if j <= i else 0.0 for i in range(P) for j in range(P)])
    write_safetensors(OUT / f"{NAME}.safetensors", tensors)
    (OUT / f"{NAME}.config.json").write_text(json.dumps(CONFIG, indent=2) + "\n")

    ids = [rng.randrange(V) for _ in range(P)]
    logits = forward(w, ids)
    write_reference(OUT / f"{NAME}.txt", {"ids": ("i64", [1, P], ids),
                                          "logits": ("f64", [1, P, V], [v for row in logits for v in row])})


if __name__ == "__main__":
    main()
