#!/usr/bin/python3
"""Writes the reference files of the image ops and layers and of batch normalisation, beside
make_reference.py's (whose format, helpers and conventions it shares): conv2d, max and average
pooling and the small CNN, written out by hand from their equations and asserted equal to
torch's own functions; BatchNorm1d in training (output, gradients, and the running statistics
after three steps) and in evaluation, by hand and asserted equal to torch.nn.BatchNorm1d.

Run from the repository's root:  /usr/bin/python3 tests/reference/make_image_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import torch
import torch.nn.functional as F

from make_reference import OUT, params_like, rand, with_grads, write


def conv2d(x, w, b, stride, padding):
    """y[n, o, i, j] = b[o] + sum_{c, u, v} w[o, c, u, v] x[n, c, i s + u - p, j s + v - p], zeros outside."""
    kh, kw = w.shape[2], w.shape[3]
    xp = F.pad(x, (padding, padding, padding, padding))
    ho = (xp.shape[2] - kh) // stride + 1
    wo = (xp.shape[3] - kw) // stride + 1
    y = sum(torch.einsum("ncij,oc->noij",
                         xp[:, :, u:u + stride * (ho - 1) + 1:stride, v:v + stride * (wo - 1) + 1:stride], w[:, :, u, v])
            for u in range(kh) for v in range(kw))
    y = y if b is None else y + b.view(1, -1, 1, 1)
    assert torch.allclose(y, F.conv2d(x, w, b, stride=stride, padding=padding), atol=1e-12), "conv2d by hand differs"
    return y


def windows(x, k, s):  # [B, C, H, W] -> [B, C, Ho, Wo, k * k], the pixels of each window
    return x.unfold(2, k, s).unfold(3, k, s).reshape(*x.shape[:2], (x.shape[2] - k) // s + 1, (x.shape[3] - k) // s + 1,
                                                     k * k)


def max_pool2d(x, k, s):
    y = windows(x, k, s).max(-1).values
    assert torch.equal(y, F.max_pool2d(x, k, s)), "max_pool2d by hand differs"
    return y


def avg_pool2d(x, k, s):
    y = windows(x, k, s).mean(-1)
    assert torch.allclose(y, F.avg_pool2d(x, k, s), atol=1e-14), "avg_pool2d by hand differs"
    return y


def distinct(*shape):  # values 0.1 apart in a random order: no ties for a maximum
    return torch.randperm(torch.Size(shape).numel()).reshape(shape).double() * 0.1


def batch_norm_train(a, gamma, beta, eps=1e-5):
    """003's remark: statistics over the rows of a [N, D] (the batch), v biased inside the root."""
    mu = a.mean(0)
    v = ((a - mu) ** 2).mean(0)
    return gamma * (a - mu) / torch.sqrt(v + eps) + beta


def main():
    torch.manual_seed(54)
    with_grads("conv2d", {"x": rand(2, 3, 6, 5)}, {"weight": rand(4, 3, 3, 3), "bias": rand(4)},
               lambda l: {"y": conv2d(l["x"], l["weight"], l["bias"], 1, 0)})
    with_grads("conv2d_stride2_pad1", {"x": rand(2, 2, 7, 6)}, {"weight": rand(3, 2, 3, 3), "bias": rand(3)},
               lambda l: {"y": conv2d(l["x"], l["weight"], l["bias"], 2, 1)})
    with_grads("max_pool2d", {"x": distinct(2, 3, 6, 6)}, {}, lambda l: {"y": max_pool2d(l["x"], 2, 2)})
    with_grads("max_pool2d_overlapping", {"x": distinct(2, 2, 7, 7)}, {}, lambda l: {"y": max_pool2d(l["x"], 3, 2)})
    with_grads("avg_pool2d", {"x": rand(2, 3, 6, 6)}, {}, lambda l: {"y": avg_pool2d(l["x"], 2, 2)})
    with_grads("avg_pool2d_overlapping", {"x": rand(2, 2, 7, 7)}, {}, lambda l: {"y": avg_pool2d(l["x"], 3, 1)})

    # The CNN of lectern/models/cnn.h: two blocks (3 and 4 channels) on 8x8 images, 5 classes.
    shapes = {"convs.0.weight": (3, 1, 3, 3), "convs.0.bias": (3,), "convs.1.weight": (4, 3, 3, 3),
              "convs.1.bias": (4,), "head.weight": (5, 16), "head.bias": (5,)}

    def cnn(l):
        h = l["x"]
        for i in range(2):
            h = max_pool2d(torch.relu(conv2d(h, l[f"convs.{i}.weight"], l[f"convs.{i}.bias"], 1, 1)), 2, 2)
        return {"logits": h.reshape(h.shape[0], -1) @ l["head.weight"].T + l["head.bias"]}
    with_grads("cnn", {"x": rand(2, 1, 8, 8)}, params_like(shapes), cnn)

    # BatchNorm1d in training on [B, T, D] (statistics over B T rows): output and gradients.
    def bn_sequence(l):
        x = l["x"]
        y = batch_norm_train(x.reshape(-1, x.shape[-1]), l["gamma"], l["beta"]).reshape(x.shape)
        torch_bn = torch.nn.BatchNorm1d(x.shape[-1])
        with torch.no_grad():
            torch_bn.weight.copy_(l["gamma"]), torch_bn.bias.copy_(l["beta"])
        assert torch.allclose(y, torch_bn(x.transpose(1, 2)).transpose(1, 2), atol=1e-12), "BatchNorm by hand differs"
        return {"y": y}
    with_grads("batch_norm_train", {"x": rand(3, 4, 5) * 3 + 1}, {"gamma": rand(5), "beta": rand(5)}, bn_sequence)

    # With a mask of the real positions: the statistics over those rows alone (torch's BatchNorm1d
    # on them), every position normalised by them.
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0], [1, 1, 1, 0]])

    def bn_masked(l):
        x, keep = l["x"], l["mask"].reshape(-1) != 0
        a = x.reshape(-1, x.shape[-1])
        mu = a[keep].mean(0)
        v = ((a[keep] - mu) ** 2).mean(0)
        y = (l["gamma"] * (a - mu) / torch.sqrt(v + 1e-5) + l["beta"]).reshape(x.shape)
        torch_bn = torch.nn.BatchNorm1d(x.shape[-1])
        with torch.no_grad():
            torch_bn.weight.copy_(l["gamma"]), torch_bn.bias.copy_(l["beta"])
        assert torch.allclose(y.reshape(-1, x.shape[-1])[keep], torch_bn(a[keep]), atol=1e-12), "masked BatchNorm"
        return {"y": y}
    with_grads("batch_norm_masked", {"x": rand(3, 4, 5) * 3 + 1, "mask": mask}, {"gamma": rand(5), "beta": rand(5)},
               bn_masked)

    # The running statistics: three training steps of torch.nn.BatchNorm1d (momentum 0.1) on [4, 3]
    # batches, then evaluation on a fifth batch; by hand, running = 0.9 running + 0.1 batch, the
    # variance unbiased.
    bn = torch.nn.BatchNorm1d(3)
    with torch.no_grad():
        bn.weight.copy_(rand(3)), bn.bias.copy_(rand(3))
    record = {"gamma": bn.weight.clone(), "beta": bn.bias.clone()}
    mean, var = torch.zeros(3), torch.ones(3)
    for step in range(3):
        x = rand(4, 3) * 2 + step
        record[f"x.{step}"] = x
        record[f"out.y.{step}"] = bn(x)
        mean = 0.9 * mean + 0.1 * x.mean(0)
        var = 0.9 * var + 0.1 * x.var(0, unbiased=True)
        assert torch.allclose(mean, bn.running_mean) and torch.allclose(var, bn.running_var), "running statistics"
        record[f"running_mean.{step}"] = bn.running_mean.clone()
        record[f"running_var.{step}"] = bn.running_var.clone()
    bn.eval()
    record["x.eval"] = rand(4, 3) * 2
    record["out.y.eval"] = bn(record["x.eval"])
    write("batch_norm_running", {k: v.detach() for k, v in record.items()})


if __name__ == "__main__":
    main()
