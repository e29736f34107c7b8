#pragma once
// The graph behind a tensor as Graphviz DOT: one box per recorded op (its name
// and output shape), one ellipse per leaf that requires grad (a parameter or an
// input; labelled by its name in `names`, else "leaf"), a dashed ellipse per
// named constant (the data x, the targets y: inputs no gradient reaches),
// arrows in the direction values flow. Call it before backward(), which
// frees the graph. Render with `dot -Tpng graph.dot -o graph.png` (Debian's
// graphviz).
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/tensor.h"

namespace autograd {

// Tensors and the names to draw them by, as in micrograd's draw_dot.
using DotNames = std::vector<std::pair<Tensor, std::string>>;

std::string to_dot(const Tensor& root, const DotNames& names = {});

// The same graph with numbers: each node and leaf also shows the norm of its
// value |v| and of the gradient |g| that backward sends it (for the root, of
// the scalar itself and 1). It runs root.backward() to get them, so the graph
// is spent, and leaves' .grad() are filled as by backward(). root: a scalar.
std::string to_dot_with_norms(const Tensor& root, const DotNames& names = {});

}  // namespace autograd
