#!/usr/bin/python3
"""Writes the reference files that tests/reference checks Lectern against.

Each case is built here in PyTorch (Debian's python3-torch), in float64, from
the notes' equations written out by hand -- not from torch.nn.Transformer, so
the reference shares no code with Lectern and no shortcut with PyTorch's own
layers. A case's file holds its inputs, parameters (named as Lectern names
them), an upstream gradient `dout`, the outputs, and the gradient of
sum(out * dout) with respect to every input and parameter ("grad.<name>").
The optimizer cases use torch.optim itself, since Lectern's optimizers are
meant to be PyTorch's.

Run from the repository's root:  /usr/bin/python3 tests/reference/make_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import math
import pathlib

import torch

OUT = pathlib.Path(__file__).resolve().parent / "data"
torch.set_default_dtype(torch.float64)


def write(name, tensors):
    """Format: a first line 'lectern-reference 1', then per tensor a header line
    '<name> f64|i64 <ndim> <sizes...>' and a line of its values, row-major,
    floats with 17 significant digits (exact for float64)."""
    lines = ["lectern-reference 1"]
    for key, t in tensors.items():
        t = t.detach()
        kind = "i64" if t.dtype == torch.int64 else "f64"
        lines.append(" ".join([key, kind, str(t.dim())] + [str(s) for s in t.shape]))
        values = t.reshape(-1).tolist()
        lines.append(" ".join(str(v) if kind == "i64" else repr(float(v)) for v in values))
    (OUT / f"{name}.txt").write_text("\n".join(lines) + "\n")


def rand(*shape):
    return torch.rand(*shape) * 2 - 1


def with_grads(name, inputs, params, forward, extra=None):
    """Runs forward(**inputs, **params) -> dict of outputs; the first output's
    gradient of sum(out * dout) is taken w.r.t. every float input and param."""
    leaves = {k: v.clone().requires_grad_(v.dtype == torch.float64) for k, v in {**inputs, **params}.items()}
    outs = forward(leaves)
    main = next(iter(outs.values()))
    dout = rand(*main.shape)
    (main * dout).sum().backward()
    record = {**leaves, "dout": dout, **{f"out.{k}": v for k, v in outs.items()}}
    for k, v in leaves.items():
        if v.requires_grad:
            record[f"grad.{k}"] = v.grad if v.grad is not None else torch.zeros_like(v)
    record.update(extra or {})
    write(name, record)


# ---- the notes' equations, written out

def linear(x, w, b):  # y = x W^T + b
    return x @ w.T + b


def layer_norm(x, gamma, beta, eps=1e-5):  # 003: gamma (a - mu) / sqrt(v + eps) + beta, v biased
    mu = x.mean(-1, keepdim=True)
    v = ((x - mu) ** 2).mean(-1, keepdim=True)
    return gamma * (x - mu) / torch.sqrt(v + eps) + beta


def attention(q, k, v, mask=None, scaled=True):
    """001/002: P = softmax(Q K^T / sqrt(d_k) + M), Z = P V; M = -inf where mask == 0 (001's text);
    a row with every key masked attends to nothing (P = 0), Lectern's convention. scaled=False:
    P = softmax(Q K^T + M), 001's dot-product attention."""
    s = q @ k.transpose(-1, -2) / (math.sqrt(q.shape[-1]) if scaled else 1.0)
    if mask is not None:
        keep = mask.expand(s.shape) != 0
        s = s.masked_fill(~keep, -math.inf)
        row_empty = ~keep.any(-1, keepdim=True)
        s = s.masked_fill(row_empty, 0.0)
        p = torch.softmax(s, -1).masked_fill(row_empty | ~keep, 0.0)
    else:
        p = torch.softmax(s, -1)
    return p @ v, p


def mha(p, prefix, q_in, kv_in, heads, mask=None, v_in=None, scaled=True):
    """001 / 004 eq. 15.55-15.56: heads from column blocks of the projections, concat, W_O.
    Values come from kv_in, or from v_in when given (keys and values of their own widths)."""
    def proj(name, x):
        return linear(x, p[f"{prefix}{name}.weight"], p[f"{prefix}{name}.bias"])

    def split(x):  # [B, T, D] -> [B, H, T, d_k]
        b, t, d = x.shape
        return x.reshape(b, t, heads, d // heads).transpose(1, 2)

    # [B or 1, T, T]: the same mask for every head; [B or 1, H, T, T]: head h's is [:, h]
    m = None if mask is None else mask if mask.dim() == 4 else mask.unsqueeze(1)
    z, _ = attention(split(proj("w_q", q_in)), split(proj("w_k", kv_in)), split(proj("w_v", kv_in if v_in is None else v_in)), m,
                     scaled)
    b, h, t, dk = z.shape
    return proj("w_o", z.transpose(1, 2).reshape(b, t, h * dk))


def ffn(p, prefix, x, act):  # 001: w_2(act(w_1 x))
    h = linear(x, p[f"{prefix}w_1.weight"], p[f"{prefix}w_1.bias"])
    h = torch.relu(h) if act == "relu" else 0.5 * h * (1 + torch.erf(h / math.sqrt(2)))  # exact GELU
    return linear(h, p[f"{prefix}w_2.weight"], p[f"{prefix}w_2.bias"])


def sublayer(p, prefix, x, f, norm):  # 003: pre x + F(LN(x)); post LN(x + F(x))
    ln = lambda h: layer_norm(h, p[f"{prefix}norm.gamma"], p[f"{prefix}norm.beta"])
    return x + f(ln(x)) if norm == "pre" else ln(x + f(x))


def encoder_layer(p, prefix, x, mask, heads, norm, act="relu"):
    h = sublayer(p, f"{prefix}sublayer.0.", x, lambda y: mha(p, f"{prefix}self_attn.", y, y, heads, mask), norm)
    return sublayer(p, f"{prefix}sublayer.1.", h, lambda y: ffn(p, f"{prefix}feed_forward.", y, act), norm)


def decoder_layer(p, prefix, x, memory, src_mask, tgt_mask, heads, norm):
    h = sublayer(p, f"{prefix}sublayer.0.", x, lambda y: mha(p, f"{prefix}self_attn.", y, y, heads, tgt_mask), norm)
    h = sublayer(p, f"{prefix}sublayer.1.", h, lambda y: mha(p, f"{prefix}src_attn.", y, memory, heads, src_mask), norm)
    return sublayer(p, f"{prefix}sublayer.2.", h, lambda y: ffn(p, f"{prefix}feed_forward.", y, "relu"), norm)


def sinusoidal(max_len, d):  # 004 §15.5.3 eq. 15.57, C = 10000
    table = torch.zeros(max_len, d)
    for i in range(max_len):
        for k in range(d):
            angle = i / 10000 ** ((k - k % 2) / d)
            table[i, k] = math.sin(angle) if k % 2 == 0 else math.cos(angle)
    return table


def label_smoothing_loss(logp, target, vocab, pad, eps):
    """LabelSmoothing of 001's full post: KL(q || p), q[target] = 1 - eps, q[pad] = 0, else eps / (V - 2);
    Lectern takes the mean over non-padding tokens."""
    q = torch.full(logp.shape, eps / (vocab - 2))
    q.scatter_(-1, target.unsqueeze(-1), 1 - eps)
    q[..., pad] = 0
    keep = (target != pad).unsqueeze(-1)
    q = q * keep
    kl = torch.where(q > 0, q * (torch.log(q.clamp_min(1e-300)) - logp), torch.zeros(()))
    return kl.sum() / keep.sum()


def params_like(shapes):
    return {k: rand(*s) for k, s in shapes.items()}


def linear_shapes(prefix, d_in, d_out):
    return {f"{prefix}weight": (d_out, d_in), f"{prefix}bias": (d_out,)}


def mha_shapes(prefix, d):
    out = {}
    for n in ("w_q", "w_k", "w_v", "w_o"):
        out.update(linear_shapes(f"{prefix}{n}.", d, d))
    return out


def ffn_shapes(prefix, d, d_ff):
    return {**linear_shapes(f"{prefix}w_1.", d, d_ff), **linear_shapes(f"{prefix}w_2.", d_ff, d)}


def ln_shapes(prefix, d):
    return {f"{prefix}gamma": (d,), f"{prefix}beta": (d,)}


def layer_shapes(prefix, d, d_ff, n_sublayers, attn_names):
    out = {}
    for a in attn_names:
        out.update(mha_shapes(f"{prefix}{a}.", d))
    out.update(ffn_shapes(f"{prefix}feed_forward.", d, d_ff))
    for i in range(n_sublayers):
        out.update(ln_shapes(f"{prefix}sublayer.{i}.norm.", d))
    return out


def causal(t):  # 001 subsequent_mask: [1, T, T], 1 where j <= i
    return torch.tril(torch.ones(1, t, t, dtype=torch.int64))


def main():
    OUT.mkdir(exist_ok=True)
    torch.manual_seed(0)  # one stream for every case: new cases go last, so the files already made stay the same

    with_grads("linear", {"x": rand(2, 3, 4)}, params_like(linear_shapes("", 4, 5)),
               lambda l: {"y": linear(l["x"], l["weight"], l["bias"])})
    with_grads("layer_norm", {"x": rand(2, 3, 5) * 3}, {"gamma": rand(5), "beta": rand(5)},
               lambda l: {"y": layer_norm(l["x"], l["gamma"], l["beta"])})
    with_grads("softmax", {"x": rand(3, 5) * 4}, {}, lambda l: {"y": torch.softmax(l["x"], -1)})
    with_grads("log_softmax", {"x": rand(3, 5) * 4}, {}, lambda l: {"y": torch.log_softmax(l["x"], -1)})

    # Attention: causal; padding with a fully masked row (batch 1, query 0).
    with_grads("attention_causal", {"q": rand(2, 2, 4, 3), "k": rand(2, 2, 4, 3), "v": rand(2, 2, 4, 3)}, {},
               lambda l: dict(zip(("z", "p"), attention(l["q"], l["k"], l["v"], causal(4).unsqueeze(0)))),
               {"mask": causal(4).unsqueeze(0)})
    pad = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]).reshape(2, 1, 1, 5).expand(2, 1, 3, 5).clone()
    pad[1, 0, 0, :] = 0
    with_grads("attention_padding", {"q": rand(2, 2, 3, 4), "k": rand(2, 2, 5, 4), "v": rand(2, 2, 5, 4)}, {},
               lambda l: dict(zip(("z", "p"), attention(l["q"], l["k"], l["v"], pad))), {"mask": pad})

    d, heads, d_ff = 8, 2, 16
    with_grads("mha_self_causal", {"x": rand(2, 4, d)}, params_like(mha_shapes("", d)),
               lambda l: {"y": mha(l, "", l["x"], l["x"], heads, causal(4))}, {"mask": causal(4)})
    src_pad = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]).reshape(2, 1, 5)
    with_grads("mha_cross_padding", {"x": rand(2, 3, d), "memory": rand(2, 5, d)}, params_like(mha_shapes("", d)),
               lambda l: {"y": mha(l, "", l["x"], l["memory"], heads, src_pad)}, {"mask": src_pad})

    write("sinusoidal_pe", {"table": sinusoidal(16, 6)})
    for act in ("relu", "gelu"):
        with_grads(f"ffn_{act}", {"x": rand(2, 3, 4)}, params_like(ffn_shapes("", 4, 6)),
                   lambda l, act=act: {"y": ffn(l, "", l["x"], act)})

    for norm in ("pre", "post"):
        lp = params_like(layer_shapes("", d, d_ff, 2, ["self_attn"]))
        with_grads(f"encoder_layer_{norm}", {"x": rand(2, 5, d)}, lp,
                   lambda l, norm=norm: {"y": encoder_layer(l, "", l["x"], src_pad, heads, norm)}, {"mask": src_pad})
        lp = params_like(layer_shapes("", d, d_ff, 3, ["self_attn", "src_attn"]))
        with_grads(f"decoder_layer_{norm}", {"x": rand(2, 4, d), "memory": rand(2, 5, d)}, lp,
                   lambda l, norm=norm: {"y": decoder_layer(l, "", l["x"], l["memory"], src_pad, causal(4), heads, norm)},
                   {"src_mask": src_pad, "tgt_mask": causal(4)})

    # A whole tiny Transformer (pre-norm, N = 1, V = 7, padding 0): log-probabilities
    # and the label-smoothed loss, with every parameter's gradient of the loss.
    V = 7
    shapes = {"src_embed.weight": (V, d), "tgt_embed.weight": (V, d)}
    shapes.update(layer_shapes("encoder.layers.0.", d, d_ff, 2, ["self_attn"]))
    shapes.update(ln_shapes("encoder.norm.", d))
    shapes.update(layer_shapes("decoder.layers.0.", d, d_ff, 3, ["self_attn", "src_attn"]))
    shapes.update(ln_shapes("decoder.norm.", d))
    shapes.update(linear_shapes("generator.proj.", d, V))
    tp = {k: v.requires_grad_() for k, v in params_like(shapes).items()}
    src = torch.tensor([[1, 3, 5, 2, 0], [1, 6, 4, 4, 2]])
    tgt_in = torch.tensor([[1, 3, 5, 2], [1, 6, 4, 0]])
    tgt_out = torch.tensor([[3, 5, 2, 0], [6, 4, 2, 0]])
    src_mask = (src != 0).unsqueeze(1).to(torch.int64)                       # [B, 1, S]
    tgt_mask = (tgt_in != 0).unsqueeze(1).to(torch.int64) * causal(4)       # [B, T, T]
    pe = sinusoidal(16, d)
    embed = lambda w, ids: w[ids] * math.sqrt(d)                            # 001: embeddings x sqrt(d_model)

    def encode(src, src_mask):
        return layer_norm(encoder_layer(tp, "encoder.layers.0.", embed(tp["src_embed.weight"], src) + pe[:src.shape[1]],
                                        src_mask, heads, "pre"), tp["encoder.norm.gamma"], tp["encoder.norm.beta"])

    def decode(memory, src_mask, tgt, tgt_mask):  # -> log-probabilities [B, T, V] (001's Generator)
        out = layer_norm(decoder_layer(tp, "decoder.layers.0.", embed(tp["tgt_embed.weight"], tgt) + pe[:tgt.shape[1]],
                                       memory, src_mask, tgt_mask, heads, "pre"),
                         tp["decoder.norm.gamma"], tp["decoder.norm.beta"])
        return torch.log_softmax(linear(out, tp["generator.proj.weight"], tp["generator.proj.bias"]), -1)

    logp = decode(encode(src, src_mask), src_mask, tgt_in, tgt_mask)
    loss = label_smoothing_loss(logp, tgt_out, V, 0, 0.1)
    loss.backward()
    write("transformer", {**tp, "src": src, "tgt_in": tgt_in, "tgt_out": tgt_out, "out.log_probs": logp,
                          "out.loss": loss.reshape(1), **{f"grad.{k}": v.grad for k, v in tp.items()}})

    # Greedy decoding with the same weights (003's loop, the whole prefix
    # re-decoded each step): from start symbol 1, the most probable next token.
    with torch.no_grad():
        memory = encode(src, src_mask)
        ys, chosen = torch.ones(2, 1, dtype=torch.int64), []
        for _ in range(5):
            last = decode(memory, src_mask, ys, causal(ys.shape[1]))[:, -1]
            lp, nxt = last.max(-1)
            chosen.append(lp)
            ys = torch.cat([ys, nxt.unsqueeze(1)], 1)
    write("greedy_decode", {**{k: v.detach() for k, v in tp.items()}, "src": src, "out.tokens": ys,
                            "out.log_probs": torch.stack(chosen, 1)})

    # A tiny ViT (002's equations): 4x4 one-channel images, patch 2 (N = 4), D 8,
    # one pre-norm GELU layer, 3 classes. Patches are taken row by row, each
    # flattened row-major (with one channel the layout has no other choice).
    vs = {"embed.proj.weight": (d, 4), "embed.proj.bias": (d,), "embed.class_token": (1, 1, d),
          "embed.position.weight": (5, d)}
    vs.update(layer_shapes("layers.0.", d, 16, 2, ["self_attn"]))
    vs.update(ln_shapes("norm.", d))
    vs.update(linear_shapes("head.", d, 3))

    def vit(l):
        img = l["images"]                                                        # [B, 1, 4, 4]
        patches = img.reshape(2, 1, 2, 2, 2, 2).permute(0, 2, 4, 3, 5, 1).reshape(2, 4, 4)  # x_p^i, row by row
        z = torch.cat([l["embed.class_token"].expand(2, 1, d),
                       linear(patches, l["embed.proj.weight"], l["embed.proj.bias"])], 1) + l["embed.position.weight"]
        z = encoder_layer(l, "layers.0.", z, None, heads, "pre", "gelu")        # z_1
        y = layer_norm(z[:, 0], l["norm.gamma"], l["norm.beta"])                # y = LN(z_L^0)
        return {"logits": linear(y, l["head.weight"], l["head.bias"])}

    with_grads("vit", {"images": rand(2, 1, 4, 4)}, params_like(vs), vit)

    # Attention rollout (002; Abnar & Zuidema): R = prod_l norm(mean_heads(A_l) + I),
    # later layers on the left; the [CLASS] row without its own column.
    attn = [torch.softmax(rand(2, 2, 5, 5) * 3, -1) for _ in range(2)]
    rollout = None
    for a in attn:
        m = a.mean(1) + torch.eye(5)
        m = m / m.sum(-1, keepdim=True)
        rollout = m if rollout is None else m @ rollout
    write("attention_rollout", {"attention.0": attn[0], "attention.1": attn[1], "out.rollout": rollout[:, 0, 1:]})

    # The label-smoothed loss alone, from logits.
    logits = (rand(2, 3, 5) * 3).requires_grad_()
    target = torch.tensor([[1, 0, 3], [4, 2, 0]])
    ls = label_smoothing_loss(torch.log_softmax(logits, -1), target, 5, 0, 0.2)
    ls.backward()
    write("label_smoothing", {"logits": logits, "target": target, "out.loss": ls.reshape(1), "grad.logits": logits.grad})

    # Adam and AdamW (torch.optim): weight decay, and a parameter `late` with no
    # gradient at steps 1 and 2. grad.<p>.<s> is the gradient set before step s;
    # after.<p>.<s> the value after it.
    for kind, opt_cls, wd in (("adam", torch.optim.Adam, 0.01), ("adamw", torch.optim.AdamW, 0.1)):
        a, late = rand(3).requires_grad_(), rand(2, 2).requires_grad_()
        record = {"a": a.detach().clone(), "late": late.detach().clone()}
        opt = opt_cls([a, late], lr=0.05, betas=(0.9, 0.98), eps=1e-8, weight_decay=wd)
        for s in range(1, 6):
            a.grad = rand(3)
            record[f"grad.a.{s}"] = a.grad.clone()
            if s >= 3:
                late.grad = rand(2, 2)
                record[f"grad.late.{s}"] = late.grad.clone()
            opt.step()
            record[f"after.a.{s}"] = a.detach().clone()
            record[f"after.late.{s}"] = late.detach().clone()
        write(kind, record)

    # The Transformer's warmup schedule (`rate` in 001's full post): factor d^-0.5 min(s^-0.5, s w^-1.5).
    steps = torch.arange(1, 13)
    write("warmup", {"lr": 2.0 * d ** -0.5 * torch.minimum(steps ** -0.5, steps * 4 ** -1.5)})

    decoder_only_cases(d, heads, d_ff)
    pooling_cases()

    # Cross-attention whose keys (width 5) and values (width 3) are not of the queries' width
    # d (003: queries from X of width d_X, keys and values from Y of width d_Y; kdim, vdim).
    shapes = {**linear_shapes("w_q.", d, d), **linear_shapes("w_k.", 5, d), **linear_shapes("w_v.", 3, d),
              **linear_shapes("w_o.", d, d)}
    with_grads("mha_kdim_vdim", {"x": rand(2, 3, d), "keys": rand(2, 5, 5), "values": rand(2, 5, 3)},
               params_like(shapes), lambda l: {"y": mha(l, "", l["x"], l["keys"], heads, src_pad, l["values"])},
               {"mask": src_pad})

    # 001's LayerNorm: a_2 (x - mean) / (std + eps) + b_2, std unbiased, eps 1e-6 outside the root.
    def layer_norm_001(l):
        x = l["x"]
        mean = x.mean(-1, keepdim=True)
        std = ((x - mean) ** 2).sum(-1, keepdim=True).div(x.shape[-1] - 1).sqrt()
        return {"y": l["gamma"] * (x - mean) / (std + 1e-6) + l["beta"]}

    with_grads("layer_norm_annotated", {"x": rand(2, 3, 5) * 3}, {"gamma": rand(5), "beta": rand(5)}, layer_norm_001)
    attention_variant_cases()

    position_cases()
    additive_recurrent_convolutional_cases()
    entailment_cases()
    hybrid_cases()
    hard_attention_cases()
    textual_similarity_cases()


# ---- positional codes other than the added sinusoid (004 §15.5.3; 000 §15.5.3)

def position_cases():
    # 004's binary code added: B[i, k] = bit k of i (column 0 toggles fastest), positions 3 .. 7 of 8.
    bits = ((torch.arange(8)[:, None] >> torch.arange(6)[None, :]) & 1).to(torch.float64)
    with_grads("binary_positions", {"x": rand(2, 5, 6)}, {}, lambda l: {"y": l["x"] + bits[3:8]},
               {"start": torch.tensor([3])})
    # The sinusoid concatenated: [x ; P_K] with x of width D - K = 4, K = 4, positions 2 .. 4.
    p_k = sinusoidal(8, 4)[2:5]
    with_grads("concatenated_positions", {"x": rand(2, 3, 4)}, {},
               lambda l: {"y": torch.cat([l["x"], p_k.expand(2, 3, 4)], -1)}, {"start": torch.tensor([2])})


# ---- the decoder-only pieces (002 "The Big Picture and Takeaways", Decoders; the GPT's layout as nanoGPT's model.py
# writes it: h = h + attn(LN(h)), h = h + mlp(LN(h)), logits = LN(h) W_tok^T).

def gelu(h):  # exact GELU, nanoGPT's nn.GELU()
    return 0.5 * h * (1 + torch.erf(h / math.sqrt(2)))


def block_local(t, length):
    """004 §15.6.1: the sequence cut into blocks of `length` positions; i attends to j iff
    both are in one block and j <= i. [1, T, T]."""
    i, j = torch.arange(t).unsqueeze(1), torch.arange(t).unsqueeze(0)
    return ((j <= i) & (i // length == j // length)).to(torch.int64).unsqueeze(0)


def moe(p, prefix, x, experts, k):
    """004 §15.5.7 with Lectern's gate (nn/mixture_of_experts.h): logits g = x W_g; each
    token's k largest, weights w = softmax over those k logits; y = sum_j w_j FFN_{e_j}(x).
    Also aux = E sum_e f_e P_e, f_e the share of the N k choices that went to e, P_e the
    mean over tokens of softmax(g)_e. Computed token by token, no routing tricks."""
    tokens = x.reshape(-1, x.shape[-1])
    logits = tokens @ p[f"{prefix}gate.weight"].T                             # [N, E]
    top, chosen = logits.topk(k, -1)
    w = torch.softmax(top, -1)
    rows = []
    for n in range(tokens.shape[0]):
        rows.append(sum(w[n, j] * ffn(p, f"{prefix}experts.{int(chosen[n, j])}.", tokens[n], "gelu")
                        for j in range(k)))
    f = torch.bincount(chosen.reshape(-1), minlength=experts).to(torch.float64) / chosen.numel()
    aux = experts * (f * torch.softmax(logits, -1).mean(0)).sum()
    return torch.stack(rows).reshape(x.shape), aux


def gpt_block(p, prefix, x, heads, block=0, experts=0, k=2):
    """Pre-norm: h' = h + MHA(LN(h)) (causal, or block-local), out = h' + MLP(LN(h'))."""
    t = x.shape[1]
    mask = causal(t) if block == 0 else block_local(t, block)
    h = sublayer(p, f"{prefix}sublayer.0.", x, lambda y: mha(p, f"{prefix}attn.", y, y, heads, mask), "pre")
    if experts:
        return sublayer(p, f"{prefix}sublayer.1.", h, lambda y: moe(p, f"{prefix}moe.", y, experts, k)[0], "pre")
    return sublayer(p, f"{prefix}sublayer.1.", h, lambda y: ffn(p, f"{prefix}mlp.", y, "gelu"), "pre")


def gpt_shapes(vocab, context, d, d_ff, n_layers, experts=0):
    shapes = {"tok_embed.weight": (vocab, d), "pos.weight": (context, d)}
    for layer in range(n_layers):
        pre = f"blocks.{layer}."
        shapes.update(mha_shapes(f"{pre}attn.", d))
        if experts:
            shapes[f"{pre}moe.gate.weight"] = (experts, d)
            for e in range(experts):
                shapes.update(ffn_shapes(f"{pre}moe.experts.{e}.", d, d_ff))
        else:
            shapes.update(ffn_shapes(f"{pre}mlp.", d, d_ff))
        for i in range(2):
            shapes.update(ln_shapes(f"{pre}sublayer.{i}.norm.", d))
    shapes.update(ln_shapes("norm.", d))
    return shapes


def decoder_only_cases(d, heads, d_ff):
    # Learned positions (002): X = E_tok[ids] + W_pos[:T], here added to any x, and at an
    # offset (incremental decoding feeds positions start .. start + T - 1).
    with_grads("learned_positions", {"x": rand(2, 3, d)}, {"weight": rand(6, d)},
               lambda l: {"y": l["x"] + l["weight"][:3]})
    with_grads("learned_positions_offset", {"x": rand(2, 3, d)}, {"weight": rand(6, d)},
               lambda l: {"y": l["x"] + l["weight"][2:5]}, {"start": torch.tensor([2])})

    # Block-local causal self-attention (004 §15.6.1), blocks of L = 2 over T = 5: the
    # blocks {0,1}, {2,3}, {4}, as one mask over the whole sequence.
    with_grads("mha_block_local", {"x": rand(2, 5, d)}, params_like(mha_shapes("", d)),
               lambda l: {"y": mha(l, "", l["x"], l["x"], heads, block_local(5, 2))}, {"mask": block_local(5, 2)})

    # The mixture of experts: E = 3 experts, top 2, on 2 x 3 tokens.
    mp = {"gate.weight": (3, d)}
    for e in range(3):
        mp.update(ffn_shapes(f"experts.{e}.", d, d_ff))
    with_grads("moe", {"x": rand(2, 3, d)}, {k: v * 2 if k == "gate.weight" else v for k, v in params_like(mp).items()},
               lambda l: dict(zip(("y", "aux"), moe(l, "", l["x"], 3, 2))))

    # One GPT block (full causal attention, GELU MLP).
    bp = {}
    bp.update(mha_shapes("attn.", d))
    bp.update(ffn_shapes("mlp.", d, d_ff))
    for i in range(2):
        bp.update(ln_shapes(f"sublayer.{i}.norm.", d))
    with_grads("gpt_block", {"x": rand(2, 4, d)}, params_like(bp), lambda l: {"y": gpt_block(l, "", l["x"], heads)})

    # Whole GPTs (vocab 7, context 6, two layers, tied output projection): the logits and the
    # next-token cross-entropy, and every parameter's gradient of the loss. The second has
    # block-local attention (L 2) and a mixture of 3 experts (top 2) in every block.
    ids = torch.tensor([[1, 3, 5, 2, 6], [4, 6, 1, 1, 0]])
    targets = torch.tensor([[3, 5, 2, 6, 1], [6, 1, 1, 0, 2]])
    for name, block, experts in (("gpt", 0, 0), ("gpt_local_moe", 2, 3)):
        gp = {k: v.requires_grad_() for k, v in params_like(gpt_shapes(7, 6, d, d_ff, 2, experts)).items()}
        h = gp["tok_embed.weight"][ids] + gp["pos.weight"][:ids.shape[1]]  # no sqrt(d_model): GPT-2's embedding
        for layer in range(2):
            h = gpt_block(gp, f"blocks.{layer}.", h, heads, block, experts)
        logits = linear(layer_norm(h, gp["norm.gamma"], gp["norm.beta"]), gp["tok_embed.weight"], 0)  # tied
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 7), targets.reshape(-1))
        loss.backward()
        write(name, {**gp, "ids": ids, "targets": targets, "out.logits": logits, "out.loss": loss.reshape(1),
                     **{f"grad.{k}": v.grad if v.grad is not None else torch.zeros_like(v) for k, v in gp.items()}})


def pooling_cases():
    """002 "Output transformations": a ViT that pools the mean of its patch outputs (no [CLASS]
    token), and the encoder-only text classifier with [CLASS] or mean pooling. Seeded on their
    own, with the shared stream restored after, so where they run changes no other case."""
    state = torch.get_rng_state()
    torch.manual_seed(30)
    d, heads = 8, 2

    vs = {"embed.proj.weight": (d, 4), "embed.proj.bias": (d,), "embed.position.weight": (4, d)}
    vs.update(layer_shapes("layers.0.", d, 16, 2, ["self_attn"]))
    vs.update(ln_shapes("norm.", d))
    vs.update(linear_shapes("head.", d, 3))

    def vit_mean(l):
        img = l["images"]                                                        # [B, 1, 4, 4]
        patches = img.reshape(2, 1, 2, 2, 2, 2).permute(0, 2, 4, 3, 5, 1).reshape(2, 4, 4)
        z = linear(patches, l["embed.proj.weight"], l["embed.proj.bias"]) + l["embed.position.weight"]
        z = encoder_layer(l, "layers.0.", z, None, heads, "pre", "gelu")
        y = layer_norm(z.mean(1), l["norm.gamma"], l["norm.beta"])               # y = LN(mean_i z_L^i)
        return {"logits": linear(y, l["head.weight"], l["head.bias"])}

    with_grads("vit_mean_pooling", {"images": rand(2, 1, 4, 4)}, params_like(vs), vit_mean)

    # The text classifier: V 7, max_len 6, N 2 pre-norm GELU layers with a final LayerNorm, 3 classes;
    # the second text is padded (id 0), which neither attention nor the mean may see.
    ids = torch.tensor([[3, 1, 4, 1, 5, 6], [2, 6, 5, 0, 0, 0]])
    for pooling in ("cls", "mean"):
        cls = pooling == "cls"
        ts = {"tok_embed.weight": (7, d), "pos.weight": (6 + cls, d)}
        if cls:
            ts["class_token"] = (1, 1, d)
        for i in range(2):
            ts.update(layer_shapes(f"encoder.layers.{i}.", d, 16, 2, ["self_attn"]))
        ts.update(ln_shapes("encoder.norm.", d))
        ts.update(linear_shapes("head.", d, 3))

        def classify(l, cls=cls):
            h = l["tok_embed.weight"][ids]                                       # E_tok[x_t], unscaled
            keep = (ids != 0).to(torch.int64)                                    # [B, T]
            if cls:
                h = torch.cat([l["class_token"].expand(2, 1, d), h], 1)
                keep = torch.cat([torch.ones(2, 1, dtype=torch.int64), keep], 1)
            h = h + l["pos.weight"][:h.shape[1]]
            for i in range(2):
                h = encoder_layer(l, f"encoder.layers.{i}.", h, keep.unsqueeze(1), heads, "pre", "gelu")
            h = layer_norm(h, l["encoder.norm.gamma"], l["encoder.norm.beta"])
            w = keep.unsqueeze(-1).to(h.dtype)
            y = h[:, 0] if cls else (h * w).sum(1) / w.sum(1)                    # [CLASS], or the mean of the tokens
            return {"logits": linear(y, l["head.weight"], l["head.bias"])}

        with_grads(f"text_classifier_{pooling}", {}, params_like(ts), classify, {"ids": ids})
    torch.set_rng_state(state)


# ---- attention without the scale, without projections, and local patterns in both
# directions. Their own random stream, so that these files and every other stay
# the same whatever cases are added after them.

def local_pattern(t, size, strided, causal_too):
    """004 §15.6.1: i attends to j iff both are in one block of `size` positions, or (strided)
    j - i is a multiple of `size`; causal also only j <= i. [1, T, T]."""
    i, j = torch.arange(t).unsqueeze(1), torch.arange(t).unsqueeze(0)
    keep = ((i - j) % size == 0) if strided else (i // size == j // size)
    if causal_too:
        keep = keep & (j <= i)
    return keep.to(torch.int64).unsqueeze(0)


def attention_variant_cases():
    with torch.random.fork_rng():
        torch.manual_seed(27)
        d, heads = 8, 2
        # Multi-head self-attention without 1/sqrt(d_k), causal.
        with_grads("mha_unscaled", {"x": rand(2, 4, d)}, params_like(mha_shapes("", d)),
                   lambda l: {"y": mha(l, "", l["x"], l["x"], heads, causal(4), scaled=False)}, {"mask": causal(4)})
        # 003's dot-product attention, no projections: softmax(X Y^T) Y, and X over itself.
        pad = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]).reshape(2, 1, 5)
        with_grads("dot_product_attention", {"x": rand(2, 3, 4) * 2, "y": rand(2, 5, 4) * 2}, {},
                   lambda l: {"a": attention(l["x"], l["y"], l["y"], pad, scaled=False)[0]}, {"mask": pad})
        with_grads("dot_product_self_attention", {"x": rand(2, 4, 3) * 2}, {},
                   lambda l: {"a": attention(l["x"], l["x"], l["x"], None, scaled=False)[0]})
        # Local patterns over T = 7 with a padding mask on the keys (the second sequence's
        # last two positions): blocks of 3 in both directions, stride 3 causal and in both.
        key_pad = torch.tensor([[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0]]).reshape(2, 1, 7)
        for name, strided, causal_too in (("mha_block_local_bidirectional", False, False),
                                          ("mha_strided_causal", True, True),
                                          ("mha_strided_bidirectional", True, False)):
            mask = local_pattern(7, 3, strided, causal_too) & key_pad
            with_grads(name, {"x": rand(2, 7, d)}, params_like(mha_shapes("", d)),
                       lambda l, mask=mask: {"y": mha(l, "", l["x"], l["x"], heads, mask)},
                       {"mask": mask, "key_mask": key_pad})



# ---- additive attention (001) and Table 15.1's recurrent and convolutional layers (004 §15.5.5).
# Their own random stream, as above.

def additive_weights(q, k, v, mask=None):
    """001's additive attention on projected queries and keys: e_ij = v^T tanh(q_i + k_j),
    P = softmax(E + M); a row with every key masked attends to nothing (P = 0)."""
    e = (torch.tanh(q.unsqueeze(-2) + k.unsqueeze(-3)) * v).sum(-1)
    if mask is None:
        return torch.softmax(e, -1)
    keep = mask.expand(e.shape) != 0
    row_empty = ~keep.any(-1, keepdim=True)
    e = e.masked_fill(~keep, -math.inf).masked_fill(row_empty, 0.0)
    return torch.softmax(e, -1).masked_fill(row_empty | ~keep, 0.0)


def mha_additive(p, prefix, q_in, kv_in, heads, mask=None):
    """Multi-head attention whose head h scores by v_h^T tanh(q W_h^Q + k W_h^K)."""
    def proj(name, x):
        return linear(x, p[f"{prefix}{name}.weight"], p[f"{prefix}{name}.bias"])

    def split(x):
        b, t, d = x.shape
        return x.reshape(b, t, heads, d // heads).transpose(1, 2)

    m = None if mask is None else mask.unsqueeze(1)
    v = p[f"{prefix}v"]
    pw = additive_weights(split(proj("w_q", q_in)), split(proj("w_k", kv_in)), v.reshape(heads, 1, 1, -1), m)
    z = pw @ split(proj("w_v", kv_in))
    b, h, t, dk = z.shape
    return proj("w_o", z.transpose(1, 2).reshape(b, t, h * dk))


def conv1d(x, w, b, dilation, causal):
    """y[b, t, o] = b[o] + sum_{j, c} w[o, j, c] x[b, t + j r - left, c], zeros outside the sequence;
    left = (k - 1) r causal, (k - 1) r // 2 same. Checked against torch's conv1d (weight [O, C, k])."""
    k, t = w.shape[1], x.shape[1]
    left = (k - 1) * dilation if causal else (k - 1) * dilation // 2
    padded = torch.cat([torch.zeros(x.shape[0], left, x.shape[2]), x,
                        torch.zeros(x.shape[0], (k - 1) * dilation - left, x.shape[2])], 1)
    y = sum(padded[:, j * dilation:j * dilation + t] @ w[:, j].T for j in range(k))
    y = y if b is None else y + b
    padding = ((k - 1) * dilation, 0) if causal else (left, (k - 1) * dilation - left)
    torch_y = torch.nn.functional.conv1d(torch.nn.functional.pad(x.transpose(1, 2), padding), w.permute(0, 2, 1), b,
                                         dilation=dilation).transpose(1, 2)
    assert torch.allclose(y, torch_y, atol=1e-12), "conv1d by hand differs from torch's"
    return y


def gru(p, prefix, x):
    """004 Table 15.1's recurrent layer, a GRU in PyTorch's form (gates r, z, n in that order)."""
    w_ih, b_ih, w_hh, b_hh = (p[f"{prefix}{n}"] for n in ("w_ih.weight", "w_ih.bias", "w_hh.weight", "w_hh.bias"))
    hidden = w_hh.shape[1]
    h, states = torch.zeros(x.shape[0], hidden), []
    for t in range(x.shape[1]):
        gi, gh = linear(x[:, t], w_ih, b_ih), linear(h, w_hh, b_hh)
        r = torch.sigmoid(gi[:, :hidden] + gh[:, :hidden])
        z = torch.sigmoid(gi[:, hidden:2 * hidden] + gh[:, hidden:2 * hidden])
        n = torch.tanh(gi[:, 2 * hidden:] + r * gh[:, 2 * hidden:])
        h = (1 - z) * n + z * h
        states.append(h)
    out = torch.stack(states, 1)
    ref = torch.nn.GRU(x.shape[2], hidden, batch_first=True)
    with torch.no_grad():
        ref.weight_ih_l0.copy_(w_ih), ref.bias_ih_l0.copy_(b_ih), ref.weight_hh_l0.copy_(w_hh), ref.bias_hh_l0.copy_(b_hh)
        assert torch.allclose(ref(x)[0], out, atol=1e-12), "the GRU by hand differs from torch.nn.GRU"
    return out


def gru_shapes(prefix, d_in, hidden):
    return {**linear_shapes(f"{prefix}w_ih.", d_in, 3 * hidden), **linear_shapes(f"{prefix}w_hh.", hidden, 3 * hidden)}


def additive_recurrent_convolutional_cases():
    with torch.random.fork_rng():
        torch.manual_seed(42)
        # Additive attention, keys and values of their own widths; batch 1's query 2 sees no key.
        mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0],
                             [1, 1, 1, 1, 1], [1, 0, 1, 0, 1], [0, 0, 0, 0, 0]]).reshape(2, 3, 5)
        with_grads("additive_attention", {"query": rand(2, 3, 4), "key": rand(2, 5, 3), "value": rand(2, 5, 2)},
                   {"w_q": rand(6, 4), "w_k": rand(6, 3), "v": rand(6)},
                   lambda l: {"z": additive_weights(l["query"] @ l["w_q"].T, l["key"] @ l["w_k"].T, l["v"], mask)
                              @ l["value"]}, {"mask": mask})
        d, heads = 8, 2
        with_grads("mha_additive", {"x": rand(2, 4, d)}, {**params_like(mha_shapes("", d)), "v": rand(heads, d // heads)},
                   lambda l: {"y": mha_additive(l, "", l["x"], l["x"], heads, causal(4))}, {"mask": causal(4)})
        # 1-D convolutions: causal, and same-padded with dilation 2 (windows past both ends).
        for name, dilation, is_causal in (("conv1d_causal", 1, True), ("conv1d_same_dilated", 2, False)):
            with_grads(name, {"x": rand(2, 7, 3)}, {"weight": rand(4, 3, 3), "bias": rand(4)},
                       lambda l, r=dilation, c=is_causal: {"y": conv1d(l["x"], l["weight"], l["bias"], r, c)})
        with_grads("gru", {"x": rand(2, 5, 3) * 2}, params_like(gru_shapes("", 3, 4)), lambda l: {"h": gru(l, "", l["x"])})
        # The sequence tagger, recurrent and convolutional (dilated): V 6, d 4, N 2, k 2.
        ids = torch.tensor([[1, 3, 4, 0, 5], [2, 5, 5, 1, 0]])
        V, d = 6, 4
        shapes = {"embed.weight": (V, d), **linear_shapes("head.", d, V)}
        for l in range(2):
            shapes.update(gru_shapes(f"grus.{l}.", d, d))

        def recurrent(l):
            h = l["embed.weight"][ids]
            for i in range(2):
                h = gru(l, f"grus.{i}.", h)
            return {"logits": linear(h, l["head.weight"], l["head.bias"])}

        with_grads("sequence_tagger_recurrent", {}, params_like(shapes), recurrent, {"ids": ids})
        shapes = {"embed.weight": (V, d), **linear_shapes("head.", d, V)}
        for i in range(2):
            shapes.update({f"convs.{i}.weight": (d, 2, d), f"convs.{i}.bias": (d,)})
        for i in range(3):
            shapes.update(ln_shapes(f"conv_norms.{i}.", d))

        def convolutional(l):  # h = h + ReLU(Conv_l(LN(h))), dilation 1 then 2, then LN
            h = l["embed.weight"][ids]
            for i in range(2):
                ln = layer_norm(h, l[f"conv_norms.{i}.gamma"], l[f"conv_norms.{i}.beta"])
                h = h + torch.relu(conv1d(ln, l[f"convs.{i}.weight"], l[f"convs.{i}.bias"], 2 ** i, True))
            h = layer_norm(h, l["conv_norms.2.gamma"], l["conv_norms.2.beta"])
            return {"logits": linear(h, l["head.weight"], l["head.bias"])}

        with_grads("sequence_tagger_convolutional", {}, params_like(shapes), convolutional, {"ids": ids})


# ---- attention for entailment (004 §15.4.6 eq. 15.49-15.53)

def decomposable_attention(l, premise, hypothesis, pad=0):
    """e_ij = f(a_i)^T f(b_j); beta_i = sum_j softmax_j(e_ij) b_j; alpha_j = sum_i softmax_i(e_ij) a_i;
    v_A = sum_i g([a_i, beta_i]), v_B = sum_j g([b_j, alpha_j]); y = h([v_A, v_B]). f and g: two
    layers with a ReLU after each; h: Linear-ReLU-Linear. Padding: -inf scores, left out of the sums."""
    mlp = lambda x, n: torch.relu(linear(torch.relu(linear(x, l[f"{n}_1.weight"], l[f"{n}_1.bias"])),
                                         l[f"{n}_2.weight"], l[f"{n}_2.bias"]))
    a, b = l["embed.weight"][premise], l["embed.weight"][hypothesis]
    keep_a, keep_b = premise != pad, hypothesis != pad  # [B, m], [B, n]
    e = mlp(a, "f") @ mlp(b, "f").transpose(1, 2)  # [B, m, n]
    beta = torch.softmax(e.masked_fill(~keep_b[:, None, :], -math.inf), 2) @ b
    alpha = torch.softmax(e.masked_fill(~keep_a[:, :, None], -math.inf), 1).transpose(1, 2) @ a
    v_a = (mlp(torch.cat([a, beta], 2), "g") * keep_a[:, :, None]).sum(1)
    v_b = (mlp(torch.cat([b, alpha], 2), "g") * keep_b[:, :, None]).sum(1)
    h = torch.relu(linear(torch.cat([v_a, v_b], 1), l["h_1.weight"], l["h_1.bias"]))
    return linear(h, l["h_2.weight"], l["h_2.bias"])


def decomposable_attention_shapes(outputs, V=9, E=4, H=5):
    """f: E -> H -> H, g: 2E -> H -> H, h: 2H -> H -> outputs, over embeddings [V, E]."""
    return {"embed.weight": (V, E), **linear_shapes("f_1.", E, H), **linear_shapes("f_2.", H, H),
            **linear_shapes("g_1.", 2 * E, H), **linear_shapes("g_2.", H, H),
            **linear_shapes("h_1.", 2 * H, H), **linear_shapes("h_2.", H, outputs)}


def entailment_cases():
    with torch.random.fork_rng():
        torch.manual_seed(43)
        # V 9, E 4, H 5; batch 0's premise and batch 1's hypothesis end in padding.
        premise = torch.tensor([[1, 5, 2, 0], [3, 8, 4, 6]])
        hypothesis = torch.tensor([[5, 7, 6], [3, 2, 0]])
        with_grads("decomposable_attention", {}, params_like(decomposable_attention_shapes(3)),
                   lambda l: {"logits": decomposable_attention(l, premise, hypothesis)},
                   {"premise": premise, "hypothesis": hypothesis})


# ---- the hybrid pattern (004 §15.6.1): the first H - H/2 heads block-local, the
# others strided with S = L. Its own random stream, as above.

def hybrid_pattern(t, size, heads, causal_too):
    """[1, H, T, T]: head h reads blocks of `size` for h < H - H/2, else every size-th key."""
    block, strided = local_pattern(t, size, False, causal_too)[0], local_pattern(t, size, True, causal_too)[0]
    n_block = heads - heads // 2
    return torch.stack([block] * n_block + [strided] * (heads - n_block)).unsqueeze(0)


def hybrid_cases():
    with torch.random.fork_rng():
        torch.manual_seed(42)
        d, heads = 6, 3  # two block-local heads and one strided, d_k = 2
        key_pad = torch.tensor([[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0]]).reshape(2, 1, 7)
        for name, causal_too in (("mha_hybrid_causal", True), ("mha_hybrid_bidirectional", False)):
            mask = hybrid_pattern(7, 3, heads, causal_too) & key_pad.unsqueeze(1)  # [2, H, 7, 7]
            with_grads(name, {"x": rand(2, 7, d)}, params_like(mha_shapes("", d)),
                       lambda l, mask=mask: {"y": mha(l, "", l["x"], l["x"], heads, mask)},
                       {"mask": mask, "key_mask": key_pad})


# ---- hard attention (004 §15.4.7) with the draws fixed, and the score-function estimator's loss

def hard_attention_cases():
    """c = v_z and log p(z) = log_softmax(s)_z; L = -(1/B) sum_b (r_b - b) log p(z_b), r a constant."""
    with torch.random.fork_rng():
        torch.manual_seed(44)
        chosen, reward, baseline = torch.tensor([1, 3, 0]), torch.tensor([1.0, 0.0, 0.5]), 0.4

        def glimpse(l):
            rows = torch.arange(3)
            log_prob = torch.log_softmax(l["scores"], 1)[rows, chosen]
            return l["values"][rows, chosen], log_prob, -((reward - baseline) * log_prob).mean().reshape(1)

        extra = {"chosen": chosen, "reward": reward, "baseline": torch.tensor([baseline])}
        # [c_b, log p(z_b)] side by side, so that dout reaches both the values and the scores
        with_grads("hard_attention_glimpse", {"scores": rand(3, 4), "values": rand(3, 4, 2)}, {},
                   lambda l: (lambda c, lp, _: {"value_and_log_prob": torch.cat([c, lp[:, None]], 1)})(*glimpse(l)),
                   extra)
        with_grads("reinforce_loss", {"scores": rand(3, 4), "values": rand(3, 4, 2)}, {},
                   lambda l: {"loss": glimpse(l)[2]}, extra)


# ---- the STS variant of attention for entailment (004 §15.4.6, after eq. 15.53)

def textual_similarity_cases():
    """y_hat = 5 sigmoid(h([v_A, v_B])), h ending in one output; the model's parameters under 'attention.'."""
    with torch.random.fork_rng():
        torch.manual_seed(45)
        premise = torch.tensor([[1, 5, 2, 0], [3, 8, 4, 6]])
        hypothesis = torch.tensor([[5, 7, 6], [3, 2, 0]])

        def score(l):
            inner = {k[len("attention."):]: v for k, v in l.items()}
            return {"score": 5 * torch.sigmoid(decomposable_attention(inner, premise, hypothesis)[:, 0])}

        params = params_like(decomposable_attention_shapes(1))
        with_grads("textual_similarity", {}, {f"attention.{k}": v for k, v in params.items()}, score,
                   {"premise": premise, "hypothesis": hypothesis})

if __name__ == "__main__":
    main()
