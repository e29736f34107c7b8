#!/usr/bin/python3
"""Writes the reference files of the conformer (004 §15.5.7), beside make_reference.py's (whose
format, helpers and conventions it shares): the depthwise 1-D convolution, GLU and Swish, each
written out by hand from its equation and asserted equal to torch's own function (conv1d with
groups = channels, F.glu, F.silu); the convolution module and the whole block, written by hand
from those and asserted equal to the same layout assembled from torch.nn modules
(torch.nn.MultiheadAttention, Conv1d, GLU, LayerNorm, SiLU) loaded with the same weights.

Run from the repository's root:  /usr/bin/python3 tests/reference/make_conformer_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import torch
import torch.nn.functional as F

from make_reference import ffn_shapes, layer_norm, linear, linear_shapes, ln_shapes, mha, mha_shapes, params_like, \
    rand, with_grads


def depthwise_conv1d(x, w, b, causal):
    """y[b, t, c] = b[c] + sum_j w[j, c] x[b, t + j - left, c], zeros outside; x [B, T, C], w [k, C];
    left = k - 1 causal, (k - 1) // 2 same. Held equal to torch's conv1d with groups = C."""
    k, t, c = w.shape[0], x.shape[1], x.shape[2]
    left = k - 1 if causal else (k - 1) // 2
    padded = torch.cat([torch.zeros(x.shape[0], left, c), x, torch.zeros(x.shape[0], k - 1 - left, c)], 1)
    y = sum(padded[:, j:j + t] * w[j] for j in range(k))
    y = y if b is None else y + b
    torch_w = w.T.unsqueeze(1)  # [C, 1, k]
    xt = x.transpose(1, 2)
    torch_y = (F.conv1d(F.pad(xt, (k - 1, 0)), torch_w, b, groups=c) if causal
               else F.conv1d(xt, torch_w, b, padding="same", groups=c)).transpose(1, 2)
    assert torch.allclose(y, torch_y, atol=1e-12), "depthwise conv1d by hand differs from torch's"
    return y


def glu(x):  # y = a sigmoid(b), a and b the halves of the last dim
    a, b = x.chunk(2, -1)
    y = a * torch.sigmoid(b)
    assert torch.allclose(y, F.glu(x, -1), atol=1e-14), "GLU by hand differs from F.glu"
    return y


def swish(x):  # x sigmoid(x)
    y = x * torch.sigmoid(x)
    assert torch.allclose(y, F.silu(x), atol=1e-14), "Swish by hand differs from F.silu"
    return y


def conv_module(p, prefix, x):
    """pointwise D -> 2D, GLU, depthwise (same), LayerNorm, Swish, pointwise D -> D."""
    h = glu(linear(x, p[f"{prefix}pointwise_in.weight"], p[f"{prefix}pointwise_in.bias"]))
    h = depthwise_conv1d(h, p[f"{prefix}depthwise.weight"], p[f"{prefix}depthwise.bias"], False)
    h = swish(layer_norm(h, p[f"{prefix}norm.gamma"], p[f"{prefix}norm.beta"]))
    return linear(h, p[f"{prefix}pointwise_out.weight"], p[f"{prefix}pointwise_out.bias"])


def swish_ffn(p, prefix, x):
    h = swish(linear(x, p[f"{prefix}w_1.weight"], p[f"{prefix}w_1.bias"]))
    return linear(h, p[f"{prefix}w_2.weight"], p[f"{prefix}w_2.bias"])


def conformer_block(p, x, heads):
    """Gulati et al. 2020 eq. 1, every sublayer pre-norm: x + FFN/2, + MHSA, + Conv, + FFN/2, LN."""
    def pre(i, h, f):
        return h + f(layer_norm(h, p[f"sublayer.{i}.norm.gamma"], p[f"sublayer.{i}.norm.beta"]))
    h = pre(0, x, lambda y: 0.5 * swish_ffn(p, "ffn_1.", y))
    h = pre(1, h, lambda y: mha(p, "self_attn.", y, y, heads))
    h = pre(2, h, lambda y: conv_module(p, "conv.", y))
    h = pre(3, h, lambda y: 0.5 * swish_ffn(p, "ffn_2.", y))
    return layer_norm(h, p["final_norm.gamma"], p["final_norm.beta"])


def torch_linear(p, name):
    m = torch.nn.Linear(*reversed(p[f"{name}.weight"].shape))
    m.weight.data, m.bias.data = p[f"{name}.weight"].detach().clone(), p[f"{name}.bias"].detach().clone()
    return m


def torch_layer_norm(p, name):
    m = torch.nn.LayerNorm(p[f"{name}.gamma"].shape[0])
    m.weight.data, m.bias.data = p[f"{name}.gamma"].detach().clone(), p[f"{name}.beta"].detach().clone()
    return m


class TorchConvModule(torch.nn.Module):
    """The convolution module from torch.nn's layers, channels first inside as torch's Conv1d wants."""
    def __init__(self, p, prefix):
        super().__init__()
        d = p[f"{prefix}depthwise.bias"].shape[0]
        k = p[f"{prefix}depthwise.weight"].shape[0]
        self.pointwise_in, self.glu = torch_linear(p, f"{prefix}pointwise_in"), torch.nn.GLU(-1)
        self.depthwise = torch.nn.Conv1d(d, d, k, padding="same", groups=d)
        self.depthwise.weight.data = p[f"{prefix}depthwise.weight"].detach().T.unsqueeze(1).clone()
        self.depthwise.bias.data = p[f"{prefix}depthwise.bias"].detach().clone()
        self.norm, self.swish = torch_layer_norm(p, f"{prefix}norm"), torch.nn.SiLU()
        self.pointwise_out = torch_linear(p, f"{prefix}pointwise_out")

    def forward(self, x):
        h = self.glu(self.pointwise_in(x))
        h = self.depthwise(h.transpose(1, 2)).transpose(1, 2)
        return self.pointwise_out(self.swish(self.norm(h)))


class TorchConformerBlock(torch.nn.Module):
    def __init__(self, p, heads):
        super().__init__()
        d = p["final_norm.gamma"].shape[0]
        self.ffn = torch.nn.ModuleList(torch.nn.Sequential(torch_linear(p, f"ffn_{i}.w_1"), torch.nn.SiLU(),
                                                           torch_linear(p, f"ffn_{i}.w_2")) for i in (1, 2))
        self.attn = torch.nn.MultiheadAttention(d, heads, batch_first=True)
        self.attn.in_proj_weight.data = torch.cat([p[f"self_attn.{n}.weight"].detach() for n in ("w_q", "w_k", "w_v")])
        self.attn.in_proj_bias.data = torch.cat([p[f"self_attn.{n}.bias"].detach() for n in ("w_q", "w_k", "w_v")])
        self.attn.out_proj.weight.data = p["self_attn.w_o.weight"].detach().clone()
        self.attn.out_proj.bias.data = p["self_attn.w_o.bias"].detach().clone()
        self.conv = TorchConvModule(p, "conv.")
        self.norms = torch.nn.ModuleList(torch_layer_norm(p, f"sublayer.{i}.norm") for i in range(4))
        self.final_norm = torch_layer_norm(p, "final_norm")

    def forward(self, x):
        x = x + 0.5 * self.ffn[0](self.norms[0](x))
        y = self.norms[1](x)
        x = x + self.attn(y, y, y, need_weights=False)[0]
        x = x + self.conv(self.norms[2](x))
        x = x + 0.5 * self.ffn[1](self.norms[3](x))
        return self.final_norm(x)


def conv_shapes(prefix, d, k):
    return {**linear_shapes(f"{prefix}pointwise_in.", d, 2 * d), f"{prefix}depthwise.weight": (k, d),
            f"{prefix}depthwise.bias": (d,), **ln_shapes(f"{prefix}norm.", d), **linear_shapes(f"{prefix}pointwise_out.", d, d)}


def main():
    torch.manual_seed(715)
    with_grads("depthwise_conv1d_same", {"x": rand(2, 7, 3)}, {"weight": rand(5, 3), "bias": rand(3)},
               lambda l: {"y": depthwise_conv1d(l["x"], l["weight"], l["bias"], False)})
    with_grads("depthwise_conv1d_causal_even", {"x": rand(2, 6, 2)}, {"weight": rand(4, 2), "bias": rand(2)},
               lambda l: {"y": depthwise_conv1d(l["x"], l["weight"], l["bias"], True)})
    with_grads("glu", {"x": rand(2, 3, 6) * 3}, {}, lambda l: {"y": glu(l["x"])})
    with_grads("swish", {"x": rand(2, 5) * 4}, {}, lambda l: {"y": swish(l["x"])})

    d, k, heads, d_ff = 4, 3, 2, 6
    conv_params = params_like(conv_shapes("", d, k))

    def conv(l):
        y = conv_module(l, "", l["x"])
        assert torch.allclose(y, TorchConvModule(l, "")(l["x"]), atol=1e-12), "conv module by hand differs from torch.nn"
        return {"y": y}
    with_grads("conformer_convolution", {"x": rand(2, 5, d)}, conv_params, conv)

    block_shapes = {**ffn_shapes("ffn_1.", d, d_ff), **mha_shapes("self_attn.", d), **conv_shapes("conv.", d, k),
                    **ffn_shapes("ffn_2.", d, d_ff), **ln_shapes("final_norm.", d)}
    for i in range(4):
        block_shapes.update(ln_shapes(f"sublayer.{i}.norm.", d))

    def block(l):
        y = conformer_block(l, l["x"], heads)
        assert torch.allclose(y, TorchConformerBlock(l, heads)(l["x"]), atol=1e-12), "block by hand differs from torch.nn"
        return {"y": y}
    with_grads("conformer_block", {"x": rand(2, 6, d)}, params_like(block_shapes), block)


if __name__ == "__main__":
    main()
