#include "autograd/dot.h"

#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "autograd/checks.h"
#include "autograd/graph.h"
#include "autograd/shape.h"

namespace autograd {

std::string to_dot(const Tensor& root) {
    check_defined("to_dot", root);
    std::string out = "digraph autograd {\n  node [fontname=\"Helvetica\", fontsize=11];\n";
    std::unordered_map<const void*, std::string> ids;  // a Node or a leaf's TensorImpl -> its DOT id
    auto id_of = [&](const void* key, const std::string& declaration) {
        auto [it, fresh] = ids.emplace(key, fmt::format("n{}", ids.size()));
        if (fresh) out += fmt::format("  {} {};\n", it->second, declaration);
        return it->second;
    };
    auto leaf_id = [&](const Tensor& t) {
        return id_of(t.impl(), fmt::format("[shape=ellipse, label=\"leaf\\n{}\"]", shape_str(t.shape())));
    };
    std::shared_ptr<Node> top = root.impl()->grad_fn;
    if (!top) {
        leaf_id(root);
        return out + "}\n";
    }
    // Depth-first over the nodes, each visited once; edges from each input to its consumer.
    std::vector<std::shared_ptr<Node>> stack{top};
    auto node_id = [&](const Node* n) {
        return id_of(n, fmt::format("[shape=box, style=rounded, label=\"{}\\n{}\"]", n->name, shape_str(n->output_shape)));
    };
    node_id(top.get());
    std::unordered_map<const Node*, bool> expanded;
    while (!stack.empty()) {
        std::shared_ptr<Node> n = stack.back();
        stack.pop_back();
        if (expanded[n.get()]) continue;
        expanded[n.get()] = true;
        const std::string consumer = node_id(n.get());
        for (const Tensor& in : n->inputs) {
            if (!in.defined() || !in.requires_grad()) continue;  // constants carry no gradient
            if (const std::shared_ptr<Node>& producer = in.impl()->grad_fn) {
                out += fmt::format("  {} -> {};\n", node_id(producer.get()), consumer);
                stack.push_back(producer);
            } else {
                out += fmt::format("  {} -> {};\n", leaf_id(in), consumer);
            }
        }
    }
    return out + "}\n";
}

}  // namespace autograd
