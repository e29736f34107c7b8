#include "lectern/data/masked_tokens.h"

#include "lectern/autograd/factories.h"

namespace data {

using autograd::Tensor;

std::pair<Tensor, Tensor> masked_token_batch(const TokenizedTexts& texts, const std::vector<std::size_t>& rows,
                                             double mask_prob, std::int64_t mask_id, autograd::Generator& gen) {
    auto [x, unused] = token_batch(texts, rows);
    Tensor target = autograd::full(x.shape(), -100, autograd::Dtype::int64);
    std::int64_t *in = x.data<std::int64_t>(), *out = target.data<std::int64_t>();
    const std::int64_t T = x.size(1);
    for (std::int64_t b = 0; b < x.size(0); ++b) {
        const auto n = static_cast<std::int64_t>(texts.ids[rows[static_cast<std::size_t>(b)]].size());
        const auto forced = static_cast<std::int64_t>(gen.next_u64() % static_cast<std::uint64_t>(n));
        for (std::int64_t t = 0; t < n; ++t) {
            if (t != forced && gen.uniform() >= mask_prob) continue;
            std::int64_t& id = in[b * T + t];
            out[b * T + t] = id;
            const double u = gen.uniform();
            if (u < 0.8) id = mask_id;
            else if (u < 0.9)
                id = 1 + static_cast<std::int64_t>(gen.next_u64() % static_cast<std::uint64_t>(mask_id - 1));
        }
    }
    return {x, target};
}

}  // namespace data
