#include "lectern/models/generate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

namespace models {

using namespace autograd;

std::int64_t window_start(std::int64_t n, std::int64_t context) {
    const std::int64_t step = std::max<std::int64_t>(context / 2, 1);
    return n <= context ? 0 : (n - context + step - 1) / step * step;
}

namespace {

void check_args(const GPT& model, const std::vector<std::int64_t>& prompt, const SamplingOptions& o) {
    const std::int64_t V = model.config.vocab;
    if (prompt.empty()) throw ValueError("generate: the prompt must hold at least one token");
    for (std::size_t i = 0; i < prompt.size(); ++i)
        if (prompt[i] < 0 || prompt[i] >= V)
            throw IndexError(
                fmt::format("generate: prompt token {} at position {} is outside [0, {})", prompt[i], i, V));
    if (!(o.temperature >= 0) || !std::isfinite(o.temperature))
        throw ValueError(fmt::format("generate: temperature must be finite and >= 0, got {}", o.temperature));
    if (o.top_k < 0 || o.max_new_tokens < 0)
        throw ValueError(
            fmt::format("generate: top_k {} and max_new_tokens {} must be >= 0", o.top_k, o.max_new_tokens));
    if (o.end_token < -1 || o.end_token >= V)
        throw IndexError(fmt::format("generate: end token {} is outside [0, {}) (or -1 for none)", o.end_token, V));
}

Tensor ids_tensor(const std::vector<std::int64_t>& tokens, std::int64_t from, std::int64_t to) {
    Tensor t = Tensor::empty({1, to - from}, Dtype::int64);
    std::copy(tokens.begin() + from, tokens.begin() + to, t.data<std::int64_t>());
    return t;
}

// Draws the next token from the last row of logits [1, t, V].
std::int64_t sample(const Tensor& logits, const SamplingOptions& o, Generator& gen) {
    const std::int64_t V = logits.size(2);
    Tensor last = narrow(logits, 1, logits.size(1) - 1, 1).to(Dtype::float64);
    const double* l = last.data<double>();
    if (o.temperature == 0) return std::max_element(l, l + V) - l;  // greedy: the first maximum
    // The k most probable, largest first, the lower id first on ties (so k = 1 is the arg-max).
    std::vector<std::int64_t> order(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    const std::int64_t k = o.top_k == 0 ? V : std::min(o.top_k, V);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](std::int64_t a, std::int64_t b) { return l[a] > l[b] || (l[a] == l[b] && a < b); });
    // softmax(l / temperature) over those k, then inverse-CDF sampling
    std::vector<double> p(static_cast<std::size_t>(k));
    double total = 0;
    for (std::int64_t i = 0; i < k; ++i) total += p[i] = std::exp((l[order[i]] - l[order[0]]) / o.temperature);
    double u = gen.uniform() * total;
    for (std::int64_t i = 0; i < k; ++i)
        if ((u -= p[i]) < 0) return order[i];
    return order[k - 1];  // u landed on the rounding error at the top
}

}  // namespace

std::vector<std::int64_t> generate(const GPT& model, const std::vector<std::int64_t>& prompt, const SamplingOptions& o,
                                   Generator& gen) {
    check_args(model, prompt, o);
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const std::int64_t C = model.config.context;
    std::vector<std::int64_t> tokens = prompt;
    std::vector<nn::KVCache> caches(model.blocks->size());
    std::int64_t cache_start = 0;  // the position in `tokens` of the cache's first entry
    while (static_cast<std::int64_t>(tokens.size() - prompt.size()) < o.max_new_tokens) {
        const auto n = static_cast<std::int64_t>(tokens.size());
        const std::int64_t s = window_start(n, C);
        Tensor logits;
        if (o.use_cache) {
            if (s != cache_start) {  // the window moved: refill the cache from its start
                for (auto& c : caches) c.clear();
                cache_start = s;
            }
            logits = model.forward_cached(ids_tensor(tokens, cache_start + caches[0].length(), n), caches);
        } else {
            logits = model.forward(ids_tensor(tokens, s, n));
        }
        tokens.push_back(sample(logits, o, gen));
        if (o.on_token && !o.on_token(tokens.back())) break;
        if (tokens.back() == o.end_token) break;
    }
    return {tokens.begin() + static_cast<std::ptrdiff_t>(prompt.size()), tokens.end()};
}

double cache_logit_difference(const GPT& model, const std::vector<std::int64_t>& tokens, std::size_t prompt_length) {
    check_args(model, tokens, SamplingOptions{});
    if (prompt_length == 0 || prompt_length > tokens.size())
        throw ValueError(
            fmt::format("cache_logit_difference: a prompt of {} of the {} tokens", prompt_length, tokens.size()));
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const std::int64_t C = model.config.context;
    std::vector<nn::KVCache> caches(model.blocks->size());
    std::int64_t cache_start = 0;
    double worst = 0;
    for (auto n = static_cast<std::int64_t>(prompt_length); n < static_cast<std::int64_t>(tokens.size()); ++n) {
        const std::int64_t s = window_start(n, C);
        if (s != cache_start) {
            for (auto& c : caches) c.clear();
            cache_start = s;
        }
        const Tensor cached = model.forward_cached(ids_tensor(tokens, cache_start + caches[0].length(), n), caches);
        const Tensor recomputed = model.forward(ids_tensor(tokens, s, n));
        const Tensor a = narrow(cached, 1, cached.size(1) - 1, 1).to(Dtype::float64),
                     b = narrow(recomputed, 1, recomputed.size(1) - 1, 1).to(Dtype::float64);
        for (std::int64_t v = 0; v < a.numel(); ++v)
            if (const double d = std::abs(a.data<double>()[v] - b.data<double>()[v]); !(d <= worst))
                worst = d;  // NaN stays
    }
    return worst;
}

}  // namespace models
