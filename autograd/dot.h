#pragma once
// The graph behind a tensor as Graphviz DOT: one box per recorded op (its name
// and output shape), one ellipse per leaf that requires grad (a parameter or an
// input), arrows in the direction values flow. Call it before backward(), which
// frees the graph. Render with `dot -Tpng graph.dot -o graph.png` (Debian's
// graphviz).
#include <string>

#include "autograd/tensor.h"

namespace autograd {

std::string to_dot(const Tensor& root);

}  // namespace autograd
