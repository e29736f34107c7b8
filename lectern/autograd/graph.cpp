#include "lectern/autograd/graph.h"

#include <atomic>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/factories.h"
#include "lectern/autograd/ops/arithmetic.h"

namespace autograd {
namespace {

const char* const kRetainGraphHint =
    "to run backward() through a graph twice, pass retain_graph = true to the first: loss.backward(true)";

thread_local bool t_grad_enabled = true;
thread_local BackwardObserver* t_observer = nullptr;
std::atomic<std::int64_t> g_live_nodes{0};

// Every node reachable from `root`, each after all nodes that consume it.
// Shared ownership keeps each node alive while the sweep frees its consumers.
std::vector<std::shared_ptr<Node>> reverse_topological(const std::shared_ptr<Node>& root) {
    std::vector<std::shared_ptr<Node>> order;
    std::unordered_set<Node*> seen{root.get()};
    // Iterative post-order DFS: deep graphs (long sequences of ops) must not
    // overflow the stack.
    std::vector<std::pair<std::shared_ptr<Node>, std::size_t>> stack{{root, 0}};
    while (!stack.empty()) {
        auto& [node, next] = stack.back();
        if (next < node->inputs.size()) {
            const Tensor& in = node->inputs[next++];
            std::shared_ptr<Node> child = in.defined() ? in.impl()->grad_fn : nullptr;
            if (child && in.requires_grad() && seen.insert(child.get()).second) {
                if (child->freed)
                    throw GraphError(
                        fmt::format("backward: the graph through '{}' was freed by an earlier backward(); {}",
                                    child->name, kRetainGraphHint));
                stack.push_back({std::move(child), 0});
            }
        } else {
            order.push_back(node);
            stack.pop_back();
        }
    }
    return {order.rbegin(), order.rend()};
}

// The first gradient to reach a leaf (or a non-leaf that retains its gradient) becomes its
// .grad. One an op's backward made that
// nothing else holds (its tensor and its storage referenced only by the one handle in the
// op's results, as a product's fresh result is) is taken as it is; any other (dy passed on
// unchanged to two inputs, a view of another gradient, the tensor a caller gave backward())
// is copied, so that accumulating into it later never writes into another tensor.
void accumulate_grad(TensorImpl* leaf, const Tensor& g, bool from_an_op) {
    if (!leaf->grad) {
        const bool sole = from_an_op && g.impl_ptr().use_count() == 1 && g.impl_ptr()->storage.use_count() == 1;
        leaf->grad = sole ? g.impl_ptr() : g.clone().impl_ptr();
    } else {
        Tensor(leaf->grad).add_(g);
    }
}

// Runs n.add_to_grad when its one input is a leaf with a grad already (anomaly mode checks
// the dense gradients, so it takes the formula's); returns whether it ran.
bool added_to_leaf_grad(const Node& n, const Tensor& dy) {
    if (!n.add_to_grad || anomaly_enabled() || n.inputs.size() != 1) return false;
    const Tensor& in = n.inputs[0];
    if (!in.defined() || !in.requires_grad() || in.impl()->grad_fn || !in.impl()->grad) return false;
    Tensor grad(in.impl()->grad);
    n.add_to_grad(dy, grad);
    ++grad.impl()->storage->version;
    return true;
}

// GraphError unless every tensor `n`'s formula may read is as it was when the
// op ran: an in-place change since (under a NoGradGuard) would make it compute
// the gradient of another function, silently.
void check_versions(const Node& n) {
    auto changed = [&](const std::string& what, const Shape& shape, std::uint64_t now, std::uint64_t then) {
        return GraphError(
            fmt::format("backward: {} of '{}' ({}) was modified by an in-place operation after '{}' "
                        "used it: it is at version {}, '{}' saw version {} (change a clone(), or "
                        "change it after backward())",
                        what, n.name, shape_str(shape), n.name, now, n.name, then));
    };
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const Tensor& in = n.inputs[i];
        if (in.defined() && in.impl()->storage->version != n.input_versions[i])
            throw changed(fmt::format("input {}", i), in.shape(), in.impl()->storage->version, n.input_versions[i]);
    }
    if (auto out = n.output_storage.lock(); out && out->version != n.output_version)
        throw changed("the output", n.output_shape, out->version, n.output_version);
}

void free_node(Node* n) {
    n->inputs.clear();
    n->backward = nullptr;
    n->freed = true;
    --g_live_nodes;
}

}  // namespace

Node::Node(const char* name_, std::vector<Tensor> inputs_, BackwardFn backward_)
    : name(name_), inputs(std::move(inputs_)), backward(std::move(backward_)) {
    ++g_live_nodes;
}

Node::~Node() {
    if (!freed) --g_live_nodes;
}

std::int64_t live_node_count() { return g_live_nodes.load(); }

bool grad_enabled() { return t_grad_enabled; }

NoGradGuard::NoGradGuard() : previous_(t_grad_enabled) { t_grad_enabled = false; }
NoGradGuard::~NoGradGuard() { t_grad_enabled = previous_; }

Tensor record(const char* op, std::vector<Tensor> inputs, Tensor out, BackwardFn backward, AnomalyCheck check) {
    if (anomaly_enabled()) check_forward_anomaly(op, inputs, out, check);
    if (!t_grad_enabled) return out;
    bool any = false;
    for (const Tensor& t : inputs) any = any || (t.defined() && t.requires_grad());
    if (!any) return out;
    // An output that is one of the op's inputs, or is already in a graph (an identity op:
    // gradient reversal, a straight-through estimator), is recorded on a view of it, as PyTorch
    // does: a new handle on the same storage. The input keeps its own node or stays a leaf,
    // and the new node does not own its output.
    bool aliased = out.impl()->grad_fn || out.impl()->requires_grad;
    for (const Tensor& t : inputs) aliased = aliased || t.impl() == out.impl();
    if (aliased) out = out.detach();
    auto node = std::make_shared<Node>(op, std::move(inputs), std::move(backward));
    node->output_shape = out.shape();
    node->input_versions.reserve(node->inputs.size());
    for (const Tensor& t : node->inputs) node->input_versions.push_back(t.defined() ? t.impl()->storage->version : 0);
    node->output_storage = out.impl()->storage;
    node->output_version = out.impl()->storage->version;
    out.impl()->grad_fn = std::move(node);
    out.impl()->requires_grad = true;
    return out;
}

BackwardObserver::BackwardObserver(std::function<void(const Node&, const Tensor&)> see)
    : see_(std::move(see)), previous_(t_observer) {
    t_observer = this;
}
BackwardObserver::~BackwardObserver() { t_observer = previous_; }

void Tensor::backward(bool retain_graph) const {
    check_defined("backward");
    if (numel() != 1)
        throw GraphError(fmt::format(
            "backward: called on a tensor of shape {} without a gradient; only a scalar has an implicit dy = 1",
            shape_str(shape())));
    backward(ones(shape(), dtype()), retain_graph);
}

void Tensor::backward(const Tensor& grad, bool retain_graph) const {
    check_defined("backward");
    autograd::check_defined("backward", grad);
    if (!requires_grad())
        throw GraphError(
            "backward: this tensor does not require grad (no input of its graph requires grad, or it was "
            "computed under a NoGradGuard)");
    if (grad.shape() != shape())
        throw ShapeError(fmt::format("backward: gradient of shape {} for a tensor of shape {}", shape_str(grad.shape()),
                                     shape_str(shape())));
    // The gradient is not converted: a float32 dy into a float64 graph would silently lose the
    // precision the float64 graph is there for, and the formulas assume one dtype throughout.
    if (grad.dtype() != dtype())
        throw DtypeError(
            fmt::format("backward: gradient of dtype {} for a tensor of dtype {} {}; pass grad.to(Dtype::{})",
                        dtype_name(grad.dtype()), dtype_name(dtype()), shape_str(shape()), dtype_name(dtype())));

    NoGradGuard no_grad;  // backward formulas are not themselves recorded
    std::shared_ptr<Node> root = impl()->grad_fn;
    if (!root) {
        accumulate_grad(impl(), grad, false);
        return;
    }
    if (root->freed)
        throw GraphError(fmt::format("backward: the graph through '{}' was freed by an earlier backward(); {}",
                                     root->name, kRetainGraphHint));

    std::vector<std::shared_ptr<Node>> order = reverse_topological(root);
    for (const std::shared_ptr<Node>& node : order) check_versions(*node);  // before any gradient moves
    std::unordered_map<Node*, Tensor> grads{{root.get(), grad}};
    for (const std::shared_ptr<Node>& node : order) {
        auto it = grads.find(node.get());
        if (it == grads.end()) {
            if (!retain_graph) free_node(node.get());
            continue;
        }
        Tensor dy = std::move(it->second);
        grads.erase(it);
        if (t_observer) t_observer->see(*node, dy);
        for (const std::weak_ptr<TensorImpl>& kept : node->retained)
            if (std::shared_ptr<TensorImpl> impl = kept.lock()) accumulate_grad(impl.get(), dy, false);
        if (added_to_leaf_grad(*node, dy)) {
            if (!retain_graph) free_node(node.get());
            continue;
        }
        std::vector<Tensor> dx = node->backward(dy);
        if (dx.size() != node->inputs.size())
            throw GraphError(
                fmt::format("backward of '{}' returned {} gradients for its {} inputs (its backward "
                            "formula must return one per input, undefined where none is needed)",
                            node->name, dx.size(), node->inputs.size()));
        if (anomaly_enabled()) check_backward_anomaly(node->name, node->inputs, dy, dx);
        for (std::size_t i = 0; i < dx.size(); ++i) {
            const Tensor& in = node->inputs[i];
            if (!dx[i].defined() || !in.defined() || !in.requires_grad()) continue;
            if (dx[i].shape() != in.shape())
                throw GraphError(fmt::format("backward of '{}' gave input {} a gradient of shape {}, not its shape {}",
                                             node->name, i, shape_str(dx[i].shape()), shape_str(in.shape())));
            if (Node* producer = in.impl()->grad_fn.get()) {
                Tensor& acc = grads[producer];
                acc = acc.defined() ? add(acc, dx[i]) : dx[i];
            } else {
                accumulate_grad(in.impl(), dx[i], true);
            }
        }
        if (!retain_graph) free_node(node.get());
    }
}

}  // namespace autograd
