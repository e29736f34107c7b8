#include "lectern/nn/mixture_of_experts.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace nn {

using namespace autograd;

MixtureOfExperts::MixtureOfExperts(std::int64_t d_model, std::int64_t d_ff, std::int64_t e, std::int64_t k, double p,
                                   Generator& gen)
    : top_k(k) {
    if (e <= 0 || k <= 0 || k > e)
        throw ValueError(
            fmt::format("MixtureOfExperts: needs 1 <= top_k <= experts, got top_k {} of {} experts", k, e));
    gate = register_module("gate", std::make_shared<Linear>(d_model, e, false, gen));
    experts = register_module("experts", std::make_shared<ModuleList<FeedForward>>());
    for (std::int64_t i = 0; i < e; ++i)
        experts->push_back(std::make_shared<FeedForward>(d_model, d_ff, p, Activation::gelu, gen));
}

namespace {

// The k largest entries of each row of logits [N, E], largest first (the first
// index on ties). A discrete choice: no gradient flows through it.
std::vector<std::int64_t> top_k_rows(const Tensor& logits, std::int64_t k) {
    const std::int64_t N = logits.size(0), E = logits.size(1);
    Tensor l = logits.detach().to(Dtype::float64);
    const double* p = l.data<double>();
    std::vector<std::int64_t> chosen(static_cast<std::size_t>(N * k)), order(static_cast<std::size_t>(E));
    for (std::int64_t n = 0; n < N; ++n) {
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](std::int64_t a, std::int64_t b) {
            return p[n * E + a] > p[n * E + b] || (p[n * E + a] == p[n * E + b] && a < b);
        });
        std::copy(order.begin(), order.begin() + k, chosen.begin() + n * k);
    }
    return chosen;
}

// Each expert's batch is padded to a multiple of this many rows (copies of its
// first token, whose outputs are never read). The number of tokens an expert
// gets changes every step; padded, its tensors come in few sizes, which the
// caching allocator (autograd/allocator.h) reuses. Unpadded, the allocator
// would keep freed blocks of every size it has seen, gigabytes over a long run.
constexpr std::int64_t kRowBucket = 64;

Tensor int64_tensor(const std::vector<std::int64_t>& v, const Shape& shape) {
    Tensor t = Tensor::empty(shape, Dtype::int64);
    std::copy(v.begin(), v.end(), t.data<std::int64_t>());
    return t;
}

}  // namespace

Tensor MixtureOfExperts::forward(const Tensor& x) const {
    check_floating("MixtureOfExperts", x);
    const std::int64_t D = gate->weight.size(1), E = gate->weight.size(0), k = top_k;
    if (x.dim() < 1 || x.size(-1) != D)
        throw ShapeError(fmt::format("MixtureOfExperts: input must be [..., {}], got {}", D, shape_str(x.shape())));
    const std::int64_t N = x.numel() / D;
    Tensor tokens = reshape(x, {N, D});
    Tensor logits = gate->forward(tokens);  // g(x) [N, E]

    // w = softmax over each token's k selected logits, [N, k]
    std::vector<std::int64_t> chosen = top_k_rows(logits, k), flat(chosen.size());
    for (std::size_t i = 0; i < chosen.size(); ++i) flat[i] = static_cast<std::int64_t>(i) / k * E + chosen[i];
    Tensor w = softmax(reshape(index_select(reshape(logits, {N * E}), 0, int64_tensor(flat, {N, k})), {N, k}), -1);

    // Dispatch: expert e runs on the tokens routed to it (padded, above); its
    // outputs are stacked expert after expert, and slot[n k + j] is where token
    // n's j-th expert's output landed.
    std::vector<std::vector<std::int64_t>> routed(static_cast<std::size_t>(E));
    for (std::int64_t i = 0; i < N * k; ++i) routed[static_cast<std::size_t>(chosen[i])].push_back(i);
    std::vector<Tensor> outputs;
    std::vector<std::int64_t> slot(static_cast<std::size_t>(N * k));
    std::int64_t row = 0;
    for (std::int64_t e = 0; e < E; ++e) {
        const auto& assignments = routed[static_cast<std::size_t>(e)];
        if (assignments.empty()) continue;
        std::vector<std::int64_t> ids;
        for (std::int64_t i : assignments) {
            ids.push_back(i / k);
            slot[static_cast<std::size_t>(i)] = row++;
        }
        const auto rows = static_cast<std::int64_t>(ids.size());
        const std::int64_t padded = (rows + kRowBucket - 1) / kRowBucket * kRowBucket;
        ids.resize(static_cast<std::size_t>(padded), ids.front());
        row += padded - rows;
        Tensor mine = index_select(tokens, 0, int64_tensor(ids, {static_cast<std::int64_t>(ids.size())}));
        outputs.push_back((*experts)[static_cast<std::size_t>(e)].forward(mine));  // [padded n_e, D]
    }
    // Combine: y_n = sum_j w_nj FFN_{e_j}(x_n)
    Tensor per_slot = reshape(index_select(concat(outputs, 0), 0, int64_tensor(slot, {N * k})), {N, k, D});
    Tensor y = sum(per_slot * unsqueeze(w, -1), 1);  // [N, D]

    // aux = E * sum_e f_e P_e
    std::vector<double> f(static_cast<std::size_t>(E));
    for (std::int64_t e = 0; e < E; ++e)
        f[static_cast<std::size_t>(e)] =
            static_cast<double>(routed[static_cast<std::size_t>(e)].size()) / static_cast<double>(N * k);
    Tensor P = mean(softmax(logits, -1), 0);  // [E]
    aux_loss_ = sum(tensor(f, {E}, x.dtype()) * P) * static_cast<double>(E);
    routing_ = {int64_tensor(chosen, {N, k}), w.detach()};
    return reshape(y, x.shape());
}

}  // namespace nn
