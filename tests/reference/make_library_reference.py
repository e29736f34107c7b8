#!/usr/bin/python3
"""Writes the reference cases of the library's PyTorch-shaped pieces: the activation
modules, nn::Sequential, and the elementwise losses (MSE, L1, BCE, BCE with logits).

Each value is the formula of the PyTorch module it stands for, as PyTorch's documentation
states it (torch.nn.ReLU, GELU, GELU(approximate="tanh"), Tanh, Sigmoid, SiLU, Sequential of
Linear layers, MSELoss, L1Loss, BCELoss with its logs clamped at -100, BCEWithLogitsLoss),
computed here in plain Python floats (double precision), with every gradient worked out by
hand from the chain rule. It shares no code with Lectern and needs neither PyTorch nor NumPy,
so anyone can rerun it; it has not been run through PyTorch itself. The files have the format
of make_reference.py's: inputs, parameters, an upstream gradient `dout`, the outputs, and the
gradient of sum(out * dout) as "grad.<name>".

Run from the repository's root:  /usr/bin/python3 tests/reference/make_library_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import math
import pathlib
import random

OUT = pathlib.Path(__file__).resolve().parent / "data"
RNG = random.Random(0)


def write(name, tensors):
    """tensors: name -> (shape, flat row-major values); the format of make_reference.py."""
    lines = ["lectern-reference 1"]
    for key, (shape, values) in tensors.items():
        lines.append(" ".join([key, "f64", str(len(shape))] + [str(s) for s in shape]))
        lines.append(" ".join(repr(float(v)) for v in values))
    (OUT / f"{name}.txt").write_text("\n".join(lines) + "\n")


def rand(n, scale=1.0):
    return [RNG.uniform(-1, 1) * scale for _ in range(n)]


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def phi_cdf(x):
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


C_TANH = math.sqrt(2 / math.pi)


def gelu_tanh(x):  # PyTorch's GELU(approximate="tanh"): x (1 + tanh u) / 2, u = sqrt(2/pi) (x + 0.044715 x^3)
    t = math.tanh(C_TANH * (x + 0.044715 * x ** 3))
    slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * C_TANH * (1 + 3 * 0.044715 * x * x)
    return 0.5 * x * (1 + t), slope


# Each activation: y(x) and dy/dx, from the formula PyTorch documents.
ACTIVATIONS = {
    "relu": (lambda x: max(x, 0.0), lambda x: 1.0 if x > 0 else 0.0),
    "gelu": (lambda x: x * phi_cdf(x), lambda x: phi_cdf(x) + x * math.exp(-x * x / 2) / math.sqrt(2 * math.pi)),
    "gelu_tanh": (lambda x: gelu_tanh(x)[0], lambda x: gelu_tanh(x)[1]),
    "tanh": (math.tanh, lambda x: 1 - math.tanh(x) ** 2),
    "sigmoid": (sigmoid, lambda x: sigmoid(x) * (1 - sigmoid(x))),
    "silu": (lambda x: x * sigmoid(x), lambda x: sigmoid(x) * (1 + x * (1 - sigmoid(x)))),
}


def activations():
    x = rand(12, 4.0)
    dout = rand(12)
    record = {"x": ([3, 4], x), "dout": ([3, 4], dout)}
    for name, (f, df) in ACTIVATIONS.items():
        record[f"out.{name}"] = ([3, 4], [f(v) for v in x])
        record[f"grad.{name}"] = ([3, 4], [d * df(v) for v, d in zip(x, dout)])
    write("activations", record)


def matvec_rows(x, rows, w, b, n_in, n_out):
    """y = x W^T + b for x [rows, n_in], W [n_out, n_in]."""
    return [b[o] + sum(x[r * n_in + i] * w[o * n_in + i] for i in range(n_in)) for r in range(rows) for o in range(n_out)]


def linear_backward(x, dy, w, rows, n_in, n_out):
    """dx = dy W, dW = dy^T x, db = sum of dy's rows."""
    dx = [sum(dy[r * n_out + o] * w[o * n_in + i] for o in range(n_out)) for r in range(rows) for i in range(n_in)]
    dw = [sum(dy[r * n_out + o] * x[r * n_in + i] for r in range(rows)) for o in range(n_out) for i in range(n_in)]
    db = [sum(dy[r * n_out + o] for r in range(rows)) for o in range(n_out)]
    return dx, dw, db


def sequential():
    """nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 3), nn.Tanh()) on x [3, 4]."""
    rows, d_in, d_h, d_out = 3, 4, 5, 3
    x = rand(rows * d_in, 2.0)
    w1, b1 = rand(d_h * d_in), rand(d_h)
    w2, b2 = rand(d_out * d_h), rand(d_out)
    h = matvec_rows(x, rows, w1, b1, d_in, d_h)
    r = [max(v, 0.0) for v in h]
    z = matvec_rows(r, rows, w2, b2, d_h, d_out)
    y = [math.tanh(v) for v in z]
    dout = rand(rows * d_out)
    dz = [d * (1 - v * v) for d, v in zip(dout, y)]
    dr, dw2, db2 = linear_backward(r, dz, w2, rows, d_h, d_out)
    dh = [d if v > 0 else 0.0 for d, v in zip(dr, h)]
    dx, dw1, db1 = linear_backward(x, dh, w1, rows, d_in, d_h)
    write("sequential_mlp", {
        "x": ([rows, d_in], x), "0.weight": ([d_h, d_in], w1), "0.bias": ([d_h], b1),
        "2.weight": ([d_out, d_h], w2), "2.bias": ([d_out], b2), "dout": ([rows, d_out], dout),
        "out.y": ([rows, d_out], y), "grad.x": ([rows, d_in], dx), "grad.0.weight": ([d_h, d_in], dw1),
        "grad.0.bias": ([d_h], db1), "grad.2.weight": ([d_out, d_h], dw2), "grad.2.bias": ([d_out], db2),
    })


def loss_case(name, x, y, per_element, slopes):
    """A mean-reduced loss of x [2, 3] against y [2, 3]: its value, and the gradients of the mean
    (dout = 1) for x and for y; slopes(x, y) gives (dl/dx, dl/dy) of one element."""
    n = len(x)
    loss = sum(per_element(a, b) for a, b in zip(x, y)) / n
    gx = [slopes(a, b)[0] / n for a, b in zip(x, y)]
    gy = [slopes(a, b)[1] / n for a, b in zip(x, y)]
    write(name, {"input": ([2, 3], x), "target": ([2, 3], y), "out.loss": ([], [loss]),
                 "grad.input": ([2, 3], gx), "grad.target": ([2, 3], gy)})


def clamped_log(p):  # BCELoss clamps each log at -100
    return max(math.log(p), -100.0) if p > 0 else -100.0


def losses():
    x, y = rand(6, 2.0), rand(6, 2.0)
    loss_case("mse_loss", x, y, lambda a, b: (a - b) ** 2, lambda a, b: (2 * (a - b), -2 * (a - b)))
    sign = lambda v: (v > 0) - (v < 0)
    loss_case("l1_loss", x, y, lambda a, b: abs(a - b), lambda a, b: (sign(a - b), -sign(a - b)))
    p = [sigmoid(v * 2) for v in rand(6)]
    t = [(v + 1) / 2 for v in rand(6)]
    loss_case("binary_cross_entropy", p, t,
              lambda a, b: -(b * clamped_log(a) + (1 - b) * clamped_log(1 - a)),
              lambda a, b: ((a - b) / max(a * (1 - a), 1e-12), clamped_log(1 - a) - clamped_log(a)))
    logits = rand(6, 4.0)
    softplus = lambda v: max(v, 0.0) + math.log1p(math.exp(-abs(v)))
    loss_case("binary_cross_entropy_with_logits", logits, t,
              lambda a, b: softplus(a) - a * b, lambda a, b: (sigmoid(a) - b, -a))


def main():
    activations()
    sequential()
    losses()


if __name__ == "__main__":
    main()
