#!/usr/bin/python3
"""Writes the GPT-2 reference: a tiny random GPT-2-shaped model in the Hugging
Face safetensors layout, its logits and its greedy generation, computed by a
forward written here from GPT-2's equations (Radford et al. 2019; the GPT-2
code's model.py), not by the transformers library; and a small file of the
dtypes the loader reads (F16, BF16, F32, F64) with the values they hold.

The safetensors files are written by hand from the documented layout (an
8-byte little-endian header length, a JSON header of dtype, shape and
data_offsets, the raw little-endian data), so neither the safetensors nor the
transformers package is needed.

Run from the repository's root:  /usr/bin/python3 tests/reference/make_gpt2_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import json
import math
import pathlib
import struct

import torch

OUT = pathlib.Path(__file__).resolve().parent / "data"
torch.set_default_dtype(torch.float64)

# The tiny model: GPT-2's shapes scaled down. Heads of 16 dimensions, so the
# file cannot tell the head count: the test builds the same configuration.
VOCAB, CONTEXT, D, LAYERS, HEADS, D_FF = 50, 12, 64, 2, 4, 256
PROMPT, NEW_TOKENS = [3, 14, 15, 9], 8


def write_safetensors(path, tensors, dtypes):
    """tensors: name -> torch tensor; dtypes: name -> 'F64' | 'F32' | 'F16' | 'BF16'."""
    header, blobs, at = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous()
        kind = dtypes[name]
        if kind == "F64":
            raw = t.to(torch.float64).numpy().tobytes()
        elif kind == "F32":
            raw = t.to(torch.float32).numpy().tobytes()
        elif kind == "F16":
            raw = t.to(torch.float16).numpy().tobytes()
        else:  # bfloat16 has no numpy type: its bits as int16
            raw = t.to(torch.bfloat16).view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": kind, "shape": list(t.shape), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def write_reference(name, tensors):
    """The format of make_reference.py: 'lectern-reference 1', then per tensor
    '<name> f64|i64 <ndim> <sizes...>' and its values, 17 significant digits."""
    lines = ["lectern-reference 1"]
    for key, t in tensors.items():
        kind = "i64" if t.dtype == torch.int64 else "f64"
        lines.append(" ".join([key, kind, str(t.dim())] + [str(s) for s in t.shape]))
        values = t.reshape(-1).tolist()
        lines.append(" ".join(str(v) if kind == "i64" else repr(float(v)) for v in values))
    (OUT / f"{name}.txt").write_text("\n".join(lines) + "\n")


def layer_norm(x, g, b):  # eps 1e-5, biased variance
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + 1e-5) * g + b


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(w, ids):
    """GPT-2 on ids [T] -> logits [T, VOCAB]; Conv1D weights are [in, out]: y = x W + b."""
    T = len(ids)
    h = w["wte.weight"][ids] + w["wpe.weight"][:T]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for l in range(LAYERS):
        p = f"h.{l}."
        a = layer_norm(h, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        q, k, v = (a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]).split(D, dim=-1)
        dh = D // HEADS
        q, k, v = (t.reshape(T, HEADS, dh).transpose(0, 1) for t in (q, k, v))  # [H, T, dh]
        scores = (q @ k.transpose(1, 2)) / math.sqrt(dh)
        scores = scores.masked_fill(~causal, float("-inf"))
        y = (torch.softmax(scores, dim=-1) @ v).transpose(0, 1).reshape(T, D)
        h = h + y @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(h, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        h = h + gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"]) @ w[p + "mlp.c_proj.weight"] \
            + w[p + "mlp.c_proj.bias"]
    return layer_norm(h, w["ln_f.weight"], w["ln_f.bias"]) @ w["wte.weight"].T


def main():
    torch.manual_seed(2)
    # Larger than GPT-2's 0.02 initialisation, so the logits spread and a wrong equation shows.
    w = {"wte.weight": torch.randn(VOCAB, D) * 0.2, "wpe.weight": torch.randn(CONTEXT, D),
         "ln_f.weight": 1 + 0.2 * torch.randn(D), "ln_f.bias": 0.1 * torch.randn(D)}
    for l in range(LAYERS):
        p = f"h.{l}."
        for ln in ("ln_1", "ln_2"):
            w[p + ln + ".weight"] = 1 + 0.2 * torch.randn(D)
            w[p + ln + ".bias"] = 0.1 * torch.randn(D)
        for name, fan_in, fan_out in (("attn.c_attn", D, 3 * D), ("attn.c_proj", D, D),
                                      ("mlp.c_fc", D, D_FF), ("mlp.c_proj", D_FF, D)):
            w[p + name + ".weight"] = torch.randn(fan_in, fan_out) / math.sqrt(fan_in)
            w[p + name + ".bias"] = 0.1 * torch.randn(fan_out)
    # The causal-mask buffer that GPT-2 checkpoints carry; the loader ignores it.
    files = dict(w, **{f"h.{l}.attn.bias": torch.tril(torch.ones(CONTEXT, CONTEXT)).reshape(1, 1, CONTEXT, CONTEXT)
                       for l in range(LAYERS)})
    write_safetensors(OUT / "gpt2_tiny.safetensors", files, {k: "F64" for k in files})

    ids = torch.randint(0, VOCAB, (CONTEXT,))
    logits = forward(w, ids)
    tokens = list(PROMPT)  # greedy: the arg-max of the last position, recomputed from scratch each step
    for _ in range(NEW_TOKENS):
        tokens.append(int(forward(w, torch.tensor(tokens))[-1].argmax()))
    write_reference("gpt2_tiny", {"ids": ids.reshape(1, CONTEXT), "logits": logits.reshape(1, CONTEXT, VOCAB),
                                  "prompt": torch.tensor(PROMPT), "generated": torch.tensor(tokens[len(PROMPT):])})

    # The dtypes: the same values stored four ways; "expect.<dtype>" is what each holds, exactly.
    values = torch.tensor([[0.0, -0.0, 1.0, -2.5, 3.14159265358979],
                           [65504.0, 6.1e-5, 5.96e-8, 1e-3, -1234.5678],
                           [1e30, -1e-30, 0.333333333333, 7.0, 100.25]])
    stored = {"f16": values.clamp(-65504, 65504), "bf16": values, "f32": values, "f64": values}
    write_safetensors(OUT / "safetensors_dtypes.safetensors", stored,
                      {"f16": "F16", "bf16": "BF16", "f32": "F32", "f64": "F64"})
    write_reference("safetensors_dtypes", {
        "expect.f16": stored["f16"].to(torch.float16).to(torch.float64),
        "expect.bf16": values.to(torch.bfloat16).to(torch.float64),
        "expect.f32": values.to(torch.float32).to(torch.float64),
        "expect.f64": values})


if __name__ == "__main__":
    main()
