#include "lectern/nn/gru.h"

#include <cmath>

#include <fmt/format.h>

#include "lectern/nn/init.h"

namespace nn {

using namespace autograd;

GRU::GRU(std::int64_t input_size, std::int64_t hidden_size, Generator& gen) : hidden(hidden_size) {
    if (input_size <= 0 || hidden_size <= 0)
        throw ValueError(fmt::format("GRU: sizes must be positive, got {} -> {}", input_size, hidden_size));
    w_ih = register_module("w_ih", std::make_shared<Linear>(input_size, 3 * hidden_size, true, gen));
    w_hh = register_module("w_hh", std::make_shared<Linear>(hidden_size, 3 * hidden_size, true, gen));
    const double bound = 1 / std::sqrt(static_cast<double>(hidden_size));
    for (Tensor p : parameters()) init::uniform_(p, -bound, bound, gen);
}

// The input's three projections for every step at once, one GEMM ([B, T, 3H]); then the
// recurrence, one step at a time: h_{t-1} -> h_t as the equations in gru.h.
Tensor GRU::forward(const Tensor& x) const {
    check_floating("GRU", x);
    if (x.dim() != 3 || x.size(2) != w_ih->weight.size(1))
        throw ShapeError(fmt::format("GRU: x must be [B, T, {}], got {}", w_ih->weight.size(1), shape_str(x.shape())));
    const std::int64_t B = x.size(0), T = x.size(1), H = hidden;
    Tensor gx = w_ih->forward(x);  // [W_ir x + b_ir, W_iz x + b_iz, W_in x + b_in]
    Tensor h = zeros({B, H}, x.dtype());
    std::vector<Tensor> states;
    for (std::int64_t t = 0; t < T; ++t) {
        Tensor gi = select(gx, 1, t), gh = w_hh->forward(h);                       // [B, 3H] each
        Tensor rz = sigmoid(narrow(gi, 1, 0, 2 * H) + narrow(gh, 1, 0, 2 * H));  // [r_t, z_t]
        Tensor r = narrow(rz, 1, 0, H), z = narrow(rz, 1, H, H);
        Tensor n = tanh(narrow(gi, 1, 2 * H, H) + r * narrow(gh, 1, 2 * H, H));
        h = n + z * (h - n);  // (1 - z) n + z h
        states.push_back(unsqueeze(h, 1));
    }
    return T > 0 ? concat(states, 1) : zeros({B, 0, H}, x.dtype());
}

}  // namespace nn
