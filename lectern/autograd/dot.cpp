#include "lectern/autograd/dot.h"

#include <cmath>
#include <functional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/checks.h"
#include "lectern/autograd/graph.h"
#include "lectern/autograd/shape.h"

namespace autograd {

namespace {

// The graph's boxes, ellipses and arrows; `label` gives each its text.
struct GraphShape {
    std::vector<std::pair<const void*, std::string>> nodes;  // key (a Node or a leaf's TensorImpl), declaration
    std::vector<std::pair<const void*, const void*>> edges;  // producer -> consumer
    std::unordered_map<const void*, Tensor> values;  // each node's output and each leaf, as its consumers hold it
};

double norm(const Tensor& t) {
    double s = 0;
    for (double v : t.to_vector()) s += v * v;
    return std::sqrt(s);
}

// Depth-first over the nodes, each visited once; edges from each input to its
// consumer. A leaf is labelled by its name, or "leaf"; a constant input only
// when named (an input such as x, drawn dashed: no gradient reaches it).
GraphShape shape_of(const Tensor& root, const DotNames& names) {
    GraphShape g;
    std::unordered_map<const void*, std::string> name_of;
    for (const auto& [t, name] : names)
        if (t.defined()) name_of[t.impl()] = name;
    std::unordered_map<const void*, bool> seen;
    auto add = [&](const void* key, std::string declaration, const Tensor& value) {
        if (seen[key]) return;
        seen[key] = true;
        g.nodes.emplace_back(key, std::move(declaration));
        g.values.emplace(key, value);
    };
    auto leaf = [&](const Tensor& t) {
        const auto it = name_of.find(t.impl());
        add(t.impl(),
            fmt::format("shape=ellipse, label=\"{}\\n{}", it == name_of.end() ? "leaf" : it->second,
                        shape_str(t.shape())),
            t);
    };
    auto input = [&](const Tensor& t) {
        add(t.impl(),
            fmt::format("shape=ellipse, style=dashed, label=\"{}\\n{}", name_of.at(t.impl()), shape_str(t.shape())), t);
    };
    auto node = [&](const Node* n, const Tensor& value) {
        add(n, fmt::format("shape=box, style=rounded, label=\"{}\\n{}", n->name, shape_str(n->output_shape)), value);
    };
    std::shared_ptr<Node> top = root.impl()->grad_fn;
    if (!top) {
        leaf(root);
        return g;
    }
    node(top.get(), root);
    std::vector<std::shared_ptr<Node>> stack{top};
    std::unordered_map<const Node*, bool> expanded;
    while (!stack.empty()) {
        std::shared_ptr<Node> n = stack.back();
        stack.pop_back();
        if (expanded[n.get()]) continue;
        expanded[n.get()] = true;
        for (const Tensor& in : n->inputs) {
            if (!in.defined()) continue;
            if (!in.requires_grad()) {  // a constant carries no gradient: drawn only when named
                if (name_of.count(in.impl()) != 0) {
                    input(in);
                    g.edges.emplace_back(in.impl(), n.get());
                }
                continue;
            }
            if (const std::shared_ptr<Node>& producer = in.impl()->grad_fn) {
                node(producer.get(), in);
                g.edges.emplace_back(producer.get(), n.get());
                stack.push_back(producer);
            } else {
                leaf(in);
                g.edges.emplace_back(in.impl(), n.get());
            }
        }
    }
    return g;
}

std::string render(const GraphShape& g, const std::function<std::string(const void*)>& extra) {
    std::string out = "digraph autograd {\n  node [fontname=\"Helvetica\", fontsize=11];\n";
    std::unordered_map<const void*, std::string> ids;
    for (const auto& [key, declaration] : g.nodes) {
        ids[key] = fmt::format("n{}", ids.size());
        out += fmt::format("  {} [{}{}\"];\n", ids[key], declaration, extra(key));
    }
    for (const auto& [from, to] : g.edges) out += fmt::format("  {} -> {};\n", ids.at(from), ids.at(to));
    return out + "}\n";
}

}  // namespace

std::string to_dot(const Tensor& root, const DotNames& names) {
    check_defined("to_dot", root);
    return render(shape_of(root, names), [](const void*) { return std::string(); });
}

std::string to_dot_with_norms(const Tensor& root, const DotNames& names) {
    check_defined("to_dot_with_norms", root);
    const GraphShape g = shape_of(root, names);
    std::unordered_map<const void*, double> grad;
    {
        BackwardObserver observe([&](const Node& n, const Tensor& dy) { grad[&n] = norm(dy); });
        root.backward();
    }
    for (const auto& [key, value] : g.values)
        if (!value.impl()->grad_fn && value.grad().defined()) grad[key] = norm(value.grad());
    return render(g, [&](const void* key) {
        std::string text = fmt::format("\\n|v| = {:.3g}", norm(g.values.at(key)));
        if (auto it = grad.find(key); it != grad.end()) text += fmt::format("\\n|g| = {:.3g}", it->second);
        return text;
    });
}

}  // namespace autograd
