#pragma once
// The define-by-run graph (docs/design.md, "The graph is built as the ops run"): each differentiable op that
// sees an input requiring grad records a Node holding its inputs and its
// backward formula. backward() visits the nodes once, in reverse topological
// order, accumulates into the leaves' grad(), then frees the graph.
//
// Ownership: an output owns its node (impl->grad_fn), a node owns its inputs.
// A node never owns its own output, so there are no cycles: backward formulas
// that need the output (softmax, exp, ...) capture `y.detach()`.
#include <cstdint>
#include <functional>
#include <vector>

#include "lectern/autograd/anomaly.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

// dy (the gradient of the op's output) -> one gradient per input, each of that
// input's shape, or an undefined Tensor where the input needs none.
using BackwardFn = std::function<std::vector<Tensor>(const Tensor& dy)>;

// For an op of one input whose gradient is zero but in a few rows (the embedding lookup):
// adds that gradient into `grad`, the input's dense gradient so far, to the same values as
// grad + backward(dy)[0], without building the dense tensor. backward() calls it in place of
// the backward formula when the input is a leaf that already has a grad (a tied embedding,
// after the output layer's dW).
using AddToGradFn = std::function<void(const Tensor& dy, Tensor& grad)>;

struct Node {
    Node(const char* name, std::vector<Tensor> inputs, BackwardFn backward);
    ~Node();
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    const char* name;
    Shape output_shape;  // for printing the graph (to_dot)
    std::vector<Tensor> inputs;
    BackwardFn backward;
    AddToGradFn add_to_grad;  // optional (above)
    bool freed = false;       // set once a backward() without retain_graph has run through it
    // The output's handles that called retain_grad(): backward() adds the output's gradient
    // to their grad(). Weak, as a node never owns its output.
    std::vector<std::weak_ptr<TensorImpl>> retained;
    // The versions of the inputs' and the output's storage when the op ran
    // (tensor.h, Storage): a formula may read any of them, so backward()
    // refuses to run it once one of them has been changed in place.
    std::vector<std::uint64_t> input_versions;
    std::weak_ptr<Storage> output_storage;
    std::uint64_t output_version = 0;
};

// Records `op` if grad mode is on and an input requires grad; returns `out`
// (now carrying the node, with the versions of its inputs and of `out`). When `out` is one of
// `inputs` or already requires grad, the node goes on a view of it (a new handle on the same
// storage), which is returned: use the result, not `out`. The ops call this right after their forward; in
// anomaly mode (autograd/anomaly.h) it first checks `out` by `check`.
Tensor record(const char* op, std::vector<Tensor> inputs, Tensor out, BackwardFn backward,
              AnomalyCheck check = AnomalyCheck::finite);

// Grad mode (per thread). Off inside NoGradGuard and while backward() runs.
bool grad_enabled();
class NoGradGuard {
public:
    NoGradGuard();
    ~NoGradGuard();
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;

private:
    bool previous_;
};

// While one is alive on this thread, backward() shows it the gradient of each
// node's output as it reaches the node (to_dot_with_norms draws them).
class BackwardObserver {
public:
    explicit BackwardObserver(std::function<void(const Node&, const Tensor& dy)> see);
    ~BackwardObserver();
    BackwardObserver(const BackwardObserver&) = delete;
    BackwardObserver& operator=(const BackwardObserver&) = delete;
    void see(const Node& node, const Tensor& dy) const { see_(node, dy); }

private:
    std::function<void(const Node&, const Tensor&)> see_;
    BackwardObserver* previous_;
};

// Number of graph nodes still holding a graph (recorded and not yet freed by a
// backward()); tests check it returns to 0 after backward.
std::int64_t live_node_count();

}  // namespace autograd
