#include "lectern/data/text_batch.h"

#include <fmt/format.h>

namespace data {

TextBatch text_batch(const TokenSpan& ids, const std::vector<std::int64_t>& starts, std::int64_t T) {
    const auto B = static_cast<std::int64_t>(starts.size()), n = ids.size();
    TextBatch b{autograd::Tensor::empty({B, T}, autograd::Dtype::int64),
                autograd::Tensor::empty({B, T}, autograd::Dtype::int64)};
    std::int64_t* x = b.inputs.data<std::int64_t>();
    std::int64_t* y = b.targets.data<std::int64_t>();
    for (std::int64_t i = 0; i < B; ++i) {
        const std::int64_t s = starts[static_cast<std::size_t>(i)];
        if (s < 0 || s + T + 1 > n)
            throw autograd::IndexError(
                fmt::format("text_batch: a window of {} + 1 tokens at {} runs past the text's {}", T, s, n));
        for (std::int64_t t = 0; t < T; ++t) {
            x[i * T + t] = ids[static_cast<std::size_t>(s + t)];
            y[i * T + t] = ids[static_cast<std::size_t>(s + t + 1)];
        }
    }
    return b;
}

}  // namespace data
