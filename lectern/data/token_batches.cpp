#include "lectern/data/token_batches.h"

#include <algorithm>
#include <cmath>

#include "lectern/autograd/factories.h"

namespace data {

using autograd::Dtype;
using autograd::Tensor;

TokenizedTexts tokenize_texts(const std::vector<LabelledText>& texts,
                              const std::function<std::vector<std::int64_t>(const std::string&)>& encode,
                              std::int64_t max_len) {
    TokenizedTexts e;
    for (const auto& t : texts) {
        std::vector<std::int64_t> ids = encode(t.text);
        if (static_cast<std::int64_t>(ids.size()) > max_len)
            ids.resize(static_cast<std::size_t>(max_len)), ++e.truncated;
        for (auto& id : ids) id += 1;  // 0 pads
        e.ids.push_back(std::move(ids));
        e.labels.push_back(t.label);
    }
    return e;
}

std::pair<Tensor, Tensor> token_batch(const TokenizedTexts& e, const std::vector<std::size_t>& rows, double drop,
                                      autograd::Generator* gen) {
    std::vector<std::vector<std::int64_t>> texts;
    std::size_t T = 1;
    for (std::size_t r : rows) {
        std::vector<std::int64_t> ids;
        for (std::size_t i = 0; i < e.ids[r].size(); ++i)
            if (drop == 0 || i == 0 || gen->uniform() >= drop) ids.push_back(e.ids[r][i]);
        T = std::max(T, ids.size());
        texts.push_back(std::move(ids));
    }
    const auto B = static_cast<std::int64_t>(rows.size());
    Tensor x = autograd::zeros({B, static_cast<std::int64_t>(T)}, Dtype::int64), y = Tensor::empty({B}, Dtype::int64);
    for (std::int64_t b = 0; b < B; ++b) {
        const auto& ids = texts[static_cast<std::size_t>(b)];
        std::copy(ids.begin(), ids.end(), x.data<std::int64_t>() + b * static_cast<std::int64_t>(T));
        y.data<std::int64_t>()[b] = e.labels[rows[static_cast<std::size_t>(b)]];
    }
    return {x, y};
}

std::vector<std::vector<std::int64_t>> bags_of_words(const WordVocabulary& vocab,
                                                     const std::vector<LabelledText>& texts) {
    std::vector<std::vector<std::int64_t>> out;
    for (const auto& t : texts) out.push_back(vocab.bag(t.text));
    return out;
}

SplitBags split_bags_of_words(const FortuneSplit& split, std::int64_t min_count) {
    std::vector<std::string> train_texts;
    for (const auto& t : split.train) train_texts.push_back(t.text);
    const WordVocabulary vocab(train_texts, min_count);
    return {vocab.size(), bags_of_words(vocab, split.train), bags_of_words(vocab, split.validation),
            bags_of_words(vocab, split.test)};
}

Tensor bag_of_words_batch(const std::vector<std::vector<std::int64_t>>& bags, const std::vector<std::size_t>& rows,
                          std::int64_t V) {
    const auto B = static_cast<std::int64_t>(rows.size());
    Tensor x = autograd::zeros({B, V});
    float* p = x.data<float>();
    for (std::int64_t b = 0; b < B; ++b) {
        const auto& ids = bags[rows[static_cast<std::size_t>(b)]];
        for (std::int64_t id : ids) p[b * V + id] = 1.0f / std::sqrt(static_cast<float>(ids.size()));
    }
    return x;
}

}  // namespace data
