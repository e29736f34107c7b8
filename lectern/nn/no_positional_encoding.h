#pragma once
#include <cstdint>

#include "lectern/nn/positional_encoding.h"

namespace nn {

// No positions: dropout(X). The model then sees its input as a set (002).
class NoPositionalEncoding : public PositionalEncoding {
public:
    explicit NoPositionalEncoding(std::int64_t d_model, double dropout = 0.0);
    using PositionalEncoding::forward;
    Tensor forward(const Tensor& x, std::int64_t start) const override;
    std::int64_t input_width() const override { return d_model; }

    std::int64_t d_model;
};

}  // namespace nn
