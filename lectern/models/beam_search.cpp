#include "lectern/models/beam_search.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace models {

using namespace autograd;

namespace {

void check_args(const Transformer& model, const Tensor& src, std::int64_t max_len, std::int64_t start_symbol,
                std::int64_t end_symbol, std::int64_t width, double length_penalty) {
    check_dtype("beam_search", src, Dtype::int64, "src");
    if (src.dim() != 2 || src.size(0) != 1)
        throw ShapeError(fmt::format("beam_search: src must be one sequence [1, S], got {}", shape_str(src.shape())));
    if (max_len < 1) throw ValueError(fmt::format("beam_search: max_len {} must be >= 1", max_len));
    if (width < 1) throw ValueError(fmt::format("beam_search: width {} must be >= 1", width));
    if (!std::isfinite(length_penalty)) throw ValueError("beam_search: the length penalty must be finite");
    for (std::int64_t symbol : {start_symbol, end_symbol})
        if (symbol < 0 || symbol >= model.config.tgt_vocab)
            throw IndexError(fmt::format("beam_search: symbol {} is outside the vocabulary [0, {})", symbol,
                                         model.config.tgt_vocab));
}

Tensor index_tensor(const std::vector<std::int64_t>& rows) {
    Tensor t = zeros({static_cast<std::int64_t>(rows.size())}, Dtype::int64);
    for (std::size_t i = 0; i < rows.size(); ++i) t.data<std::int64_t>()[i] = rows[i];
    return t;
}

// The caches of the beams `rows` (a beam may be kept twice, or dropped).
void reorder(DecoderCache& cache, const Tensor& rows) {
    for (DecoderLayerCache& layer : cache)
        for (nn::KVCache* c : {&layer.self_attn, &layer.src_attn}) c->reorder(rows);
}

struct Candidate {
    double log_prob;
    std::int64_t beam, token;
};

}  // namespace

BeamHypothesis beam_search(const Transformer& model, const Tensor& src, const Tensor& src_mask, std::int64_t max_len,
                           std::int64_t start_symbol, std::int64_t end_symbol, std::int64_t width,
                           double length_penalty) {
    check_args(model, src, max_len, start_symbol, end_symbol, width, length_penalty);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const Tensor memory = model.encode(src, src_mask);  // [1, S, D], shared by every beam
    DecoderCache cache = model.new_cache();
    std::vector<BeamHypothesis> live{{{start_symbol}, 0, 0}}, finished;
    for (std::int64_t t = 1; t < max_len && !live.empty(); ++t) {
        const auto K = static_cast<std::int64_t>(live.size());
        const Tensor first_row = zeros({K}, Dtype::int64);
        Tensor last = zeros({K, 1}, Dtype::int64);
        for (std::int64_t b = 0; b < K; ++b)
            last.data<std::int64_t>()[b] = live[static_cast<std::size_t>(b)].tokens.back();
        Tensor out = model.decode_step(index_select(memory, 0, first_row), index_select(src_mask, 0, first_row), last,
                                       t - 1, cache);
        const Tensor log_probs = reshape(model.generator->forward(out), {K, -1}).to(Dtype::float64);  // [K, V]
        const std::int64_t V = log_probs.size(1);
        const double* lp = log_probs.data<double>();
        std::vector<Candidate> candidates;
        candidates.reserve(static_cast<std::size_t>(K * V));
        for (std::int64_t b = 0; b < K; ++b)
            for (std::int64_t v = 0; v < V; ++v)
                candidates.push_back({live[static_cast<std::size_t>(b)].log_prob + lp[b * V + v], b, v});
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });
        std::vector<BeamHypothesis> next;
        std::vector<std::int64_t> rows;
        for (const Candidate& c : candidates) {
            if (static_cast<std::int64_t>(next.size()) == width) break;
            BeamHypothesis h{live[static_cast<std::size_t>(c.beam)].tokens, c.log_prob, 0};
            h.tokens.push_back(c.token);
            if (c.token == end_symbol) {
                finished.push_back(std::move(h));
                if (static_cast<std::int64_t>(finished.size()) == width) break;
            } else {
                next.push_back(std::move(h));
                rows.push_back(c.beam);
            }
        }
        live = std::move(next);
        if (static_cast<std::int64_t>(finished.size()) >= width) break;
        if (!live.empty()) reorder(cache, index_tensor(rows));
    }
    if (static_cast<std::int64_t>(finished.size()) < width)  // max_len reached: the live prefixes compete as they are
        for (BeamHypothesis& h : live) finished.push_back(std::move(h));
    for (BeamHypothesis& h : finished)
        h.score = h.log_prob / std::pow((5.0 + static_cast<double>(h.tokens.size() - 1)) / 6.0, length_penalty);
    // The best score; on a tie the one found first (finished earlier, or ranked higher).
    return *std::max_element(finished.begin(), finished.end(),
                             [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score < b.score; });
}

}  // namespace models
