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

// h_{t-1} -> h_t, as the equations in gru.h.
Tensor GRU::step(const Tensor& x, const Tensor& h) const {
    const std::int64_t in = w_ih->weight.size(1), H = hidden;
    check_floating("GRU", x);
    check_floating("GRU", h);
    if (x.dim() != 2 || x.size(1) != in || h.dim() != 2 || h.size(0) != x.size(0) || h.size(1) != H)
        throw ShapeError(fmt::format("GRU: a step takes x [B, {}] and h [B, {}] of one B, got {} and {}", in, H,
                                     shape_str(x.shape()), shape_str(h.shape())));
    Tensor gi = w_ih->forward(x), gh = w_hh->forward(h);                     // [B, 3H] each
    Tensor rz = sigmoid(narrow(gi, 1, 0, 2 * H) + narrow(gh, 1, 0, 2 * H));  // [r_t, z_t]
    Tensor r = narrow(rz, 1, 0, H), z = narrow(rz, 1, H, H);
    Tensor n = tanh(narrow(gi, 1, 2 * H, H) + r * narrow(gh, 1, 2 * H, H));
    return n + z * (h - n);  // (1 - z) n + z h_{t-1}
}

std::vector<Tensor> GRU::forward_steps(const std::vector<Tensor>& xs) const {
    const std::int64_t in = w_ih->weight.size(1);
    std::vector<Tensor> hs;
    Tensor h;
    for (const Tensor& x : xs) {
        check_floating("GRU", x);
        if (x.dim() != 2 || x.size(1) != in || (h.defined() && x.size(0) != h.size(0)))
            throw ShapeError(fmt::format("GRU: every step must be [B, {}] of one B, got {}", in, shape_str(x.shape())));
        if (!h.defined()) h = zeros({x.size(0), hidden}, x.dtype());  // h_0
        h = step(x, h);
        hs.push_back(h);
    }
    return hs;
}

Tensor GRU::forward(const Tensor& x) const {
    check_floating("GRU", x);
    if (x.dim() != 3 || x.size(2) != w_ih->weight.size(1))
        throw ShapeError(fmt::format("GRU: x must be [B, T, {}], got {}", w_ih->weight.size(1), shape_str(x.shape())));
    if (x.size(1) == 0) return zeros({x.size(0), 0, hidden}, x.dtype());
    std::vector<Tensor> xs;
    for (std::int64_t t = 0; t < x.size(1); ++t) xs.push_back(select(x, 1, t));
    std::vector<Tensor> hs = forward_steps(xs);
    for (Tensor& h : hs) h = unsqueeze(h, 1);
    return concat(hs, 1);
}

}  // namespace nn
