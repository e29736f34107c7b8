#!/usr/bin/python3
"""Writes the reference cases of the library's later PyTorch-shaped pieces, computed by
PyTorch itself (Debian's python3-torch, 1.13), in float64: nn::ModuleDict against
torch.nn.ModuleDict (its parameters' names and order, the heads' outputs and gradients),
topk against torch.topk, x[mask] and masked_select against PyTorch's boolean indexing and
torch.masked_select (values and gradients), and a two-group SGD under
torch.optim.lr_scheduler.LambdaLR (each group's lr per step). The files have the format
of make_reference.py's, whose write() this script uses: inputs, parameters named as
PyTorch names them, an upstream gradient `dout`, the outputs, and the gradient of
sum(out * dout) as "grad.<name>".

Run from the repository's root:  /usr/bin/python3 tests/reference/make_library_torch_reference.py
Only needed to regenerate the committed files; never to build or test.
"""
import torch

from make_reference import write

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


def module_dict():
    """A trunk and a dict of two heads, inserted "cls" then "box": state_dict keeps that order."""
    model = torch.nn.Module()
    model.trunk = torch.nn.Linear(3, 4)
    model.heads = torch.nn.ModuleDict({"cls": torch.nn.Linear(4, 2), "box": torch.nn.Linear(4, 3, bias=False)})
    x = torch.rand(2, 3, requires_grad=True)
    h = torch.tanh(model.trunk(x))
    cls, box = model.heads["cls"](h), model.heads["box"](h)
    dout_cls, dout_box = torch.rand(2, 2), torch.rand(2, 3)
    (cls * dout_cls).sum().backward(retain_graph=True)
    (box * dout_box).sum().backward()
    tensors = {"x": x}
    tensors.update({name: p for name, p in model.named_parameters()})
    tensors.update({"dout.cls": dout_cls, "dout.box": dout_box, "out.cls": cls, "out.box": box, "grad.x": x.grad})
    tensors.update({"grad." + name: p.grad for name, p in model.named_parameters()})
    write("module_dict", tensors)


def topk():
    x = torch.rand(3, 5, requires_grad=True)
    largest = torch.topk(x, 2, dim=1)
    smallest = torch.topk(x, 3, dim=0, largest=False)
    dout_l, dout_s = torch.rand(3, 2), torch.rand(3, 5)
    ((largest.values * dout_l).sum() + (smallest.values * dout_s).sum()).backward()
    write("topk", {"x": x, "dout.largest": dout_l, "dout.smallest": dout_s,
                   "out.largest": largest.values, "out.largest_indices": largest.indices,
                   "out.smallest": smallest.values, "out.smallest_indices": smallest.indices, "grad.x": x.grad})


def boolean_mask():
    x = torch.rand(3, 2, 4, requires_grad=True)
    rows = torch.tensor([[1, 0], [0, 0], [1, 1]])
    cols = torch.tensor([1, 0, 0, 1])
    picked = x[rows.bool()]                      # [3, 4]
    selected = torch.masked_select(x, cols.bool())  # mask [4] broadcast to [3, 2, 4]: [12]
    dout_p, dout_s = torch.rand(picked.shape), torch.rand(selected.shape)
    ((picked * dout_p).sum() + (selected * dout_s).sum()).backward()
    write("boolean_mask", {"x": x, "mask.rows": rows, "mask.cols": cols, "dout.index": dout_p,
                           "dout.select": dout_s, "out.index": picked, "out.select": selected, "grad.x": x.grad})


def lambda_lr():
    """SGD with a base lr 0.1 and a group at 0.5; LambdaLR's factor 1 / (1 + step)."""
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    sgd = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    schedule = torch.optim.lr_scheduler.LambdaLR(sgd, lambda step: 1 / (1 + step))
    lrs = []
    for _ in range(4):
        lrs.append([group["lr"] for group in sgd.param_groups])
        sgd.step()
        schedule.step()
    write("lambda_lr", {"lr": torch.tensor(lrs)})  # [step, group]


def main():
    module_dict()
    topk()
    boolean_mask()
    lambda_lr()


if __name__ == "__main__":
    main()
