#!/usr/bin/python3
"""Writes the reference cases of the RNN encoder-decoder with additive attention
(lectern/models/rnn_seq2seq.h; 003 "Traditional attention"; 004 §15.5.1, which points back to
§15.4.4), in float64: Bahdanau et al.'s model built in PyTorch (Debian's python3-torch, 1.13)
from PyTorch's torch.nn.GRUCell, run with the case's weights through
torch.nn.utils.stateless.functional_call, stepped over the source for the encoder (and held
equal to torch.nn.GRU with the weights copied in: functional_call cannot reach nn.GRU's flat
weights in 1.13) and over the target for the decoder, and the additive scores
e_ij = v^T tanh(W_q s_{i-1} + W_k h_j) written out (PyTorch has no additive attention layer).
No code is shared with Lectern; the GRUs are PyTorch's own.

rnn_seq2seq: teacher forcing over 3 target steps, two sources of 4 with the second's last
token padding; the log-probabilities [B, T, V], every alpha_i, and the gradient of
sum(log_probs * dout) with respect to every parameter, named as Lectern names them.
rnn_seq2seq_greedy: the same weights decoding greedily 5 tokens from the start symbol: the
tokens, each one's log-probability and every step's alpha.

The files have make_reference.py's format, whose write() and with_grads() this script uses.
Run from the repository's root:  /usr/bin/python3 tests/reference/make_rnn_attention_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import math

import torch
from torch.nn.utils.stateless import functional_call

from make_reference import rand, with_grads, write

torch.set_default_dtype(torch.float64)

V_SRC, V_TGT, E, H, D_A, PAD = 7, 6, 3, 4, 5, 0


def shapes():
    """Lectern's names and shapes (nn::GRU's w_ih, w_hh are PyTorch's weight_ih_l0, weight_hh_l0)."""
    s = {"src_embed.weight": (V_SRC, E), "tgt_embed.weight": (V_TGT, E)}
    for name, d_in in (("encoder", E), ("decoder", E + H)):
        s.update({f"{name}.w_ih.weight": (3 * H, d_in), f"{name}.w_ih.bias": (3 * H,),
                  f"{name}.w_hh.weight": (3 * H, H), f"{name}.w_hh.bias": (3 * H,)})
    s.update({"attention.w_q": (D_A, H), "attention.w_k": (D_A, H), "attention.v": (D_A,),
              "generator.proj.weight": (V_TGT, 2 * H), "generator.proj.bias": (V_TGT,)})
    return s


def torch_gru_params(l, name, suffix=""):
    return {f"weight_ih{suffix}": l[f"{name}.w_ih.weight"], f"bias_ih{suffix}": l[f"{name}.w_ih.bias"],
            f"weight_hh{suffix}": l[f"{name}.w_hh.weight"], f"bias_hh{suffix}": l[f"{name}.w_hh.bias"]}


def encoder_gru(l, x):
    """h_1..h_S by torch.nn.GRUCell step by step, from h_0 = 0; checked against torch.nn.GRU."""
    cell, h, states = torch.nn.GRUCell(E, H), torch.zeros(x.shape[0], H), []
    for t in range(x.shape[1]):
        h = functional_call(cell, torch_gru_params(l, "encoder"), (x[:, t], h))
        states.append(h)
    states = torch.stack(states, 1)
    ref = torch.nn.GRU(E, H, batch_first=True)
    with torch.no_grad():
        for name, value in torch_gru_params(l, "encoder", "_l0").items():
            getattr(ref, name).copy_(value)
        assert torch.allclose(ref(x)[0], states, atol=1e-12), "GRUCell stepped differs from torch.nn.GRU"
    return states


class Model:
    """Bahdanau et al.'s encoder-decoder as rnn_seq2seq.h writes it, on the weights `l`."""

    def __init__(self, l):
        self.l = l
        self.cell = torch.nn.GRUCell(E + H, H)

    def encode(self, src):
        l = self.l
        states = encoder_gru(l, l["src_embed.weight"][src])
        keep = src != PAD                                                   # [B, S]
        last = (keep * torch.arange(src.shape[1])).max(1).values           # the last real token
        s0 = states[torch.arange(src.shape[0]), last]                      # s_0 = h_{S_b}
        return states, states @ l["attention.w_k"].T, keep, s0

    def step(self, source, s, y_prev):
        """alpha_i = softmax_j(v^T tanh(W_q s_{i-1} + W_k h_j)), c_i = sum_j alpha_ij h_j,
        s_i = GRUCell([E y_{i-1} ; c_i], s_{i-1}), log p = log_softmax(W_o [s_i ; c_i] + b_o)."""
        l = self.l
        states, keys, keep, _ = source
        q = s @ l["attention.w_q"].T                                        # [B, d_a]
        e = (torch.tanh(q[:, None, :] + keys) * l["attention.v"]).sum(-1)   # [B, S]
        alpha = torch.softmax(e.masked_fill(~keep, -math.inf), -1)
        c = (alpha[:, :, None] * states).sum(1)                             # [B, H]
        s = functional_call(self.cell, torch_gru_params(l, "decoder"), (torch.cat([l["tgt_embed.weight"][y_prev], c], 1), s))
        logits = torch.cat([s, c], 1) @ l["generator.proj.weight"].T + l["generator.proj.bias"]
        return torch.log_softmax(logits, -1), s, alpha


def teacher_forcing(l, src, tgt_in):
    model = Model(l)
    source = model.encode(src)
    s, log_probs, alphas = source[3], [], []
    for i in range(tgt_in.shape[1]):
        lp, s, alpha = model.step(source, s, tgt_in[:, i])
        log_probs.append(lp), alphas.append(alpha)
    return {"log_probs": torch.stack(log_probs, 1), "weights": torch.stack(alphas, 1)}


def greedy(l, src, max_len, start):
    model = Model(l)
    source = model.encode(src)
    s = source[3]
    tokens = [torch.full((src.shape[0],), start, dtype=torch.int64)]
    scores, alphas = [], []
    for _ in range(max_len - 1):
        lp, s, alpha = model.step(source, s, tokens[-1])
        best = lp.argmax(-1)
        tokens.append(best), scores.append(lp.gather(1, best[:, None])[:, 0]), alphas.append(alpha)
    return torch.stack(tokens, 1), torch.stack(scores, 1), torch.stack(alphas, 1)


def main():
    torch.manual_seed(54)  # a seed whose greedy tokens vary along a sequence (1 5 3 2 5), not one token repeated
    src = torch.tensor([[1, 3, 4, 6], [2, 5, 5, 0]])
    tgt_in = torch.tensor([[1, 4, 2], [1, 5, 5]])
    params = {k: rand(*v) for k, v in shapes().items()}
    with_grads("rnn_seq2seq", {}, params, lambda l: teacher_forcing(l, src, tgt_in), {"src": src, "tgt_in": tgt_in})
    with torch.no_grad():
        tokens, scores, alphas = greedy(params, src, 5, 1)
    write("rnn_seq2seq_greedy", {**params, "src": src, "out.tokens": tokens, "out.log_probs": scores,
                                 "out.weights": alphas})


if __name__ == "__main__":
    main()
