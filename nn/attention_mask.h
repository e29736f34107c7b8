#pragma once
// Attention masks: int64 tensors, nonzero where a query may attend to a key.
#include <cstdint>

#include "autograd/autograd.h"

namespace nn {

// [1, n, n] with 1 where key j <= query i: the decoder's causal mask
// (001 subsequent_mask; 002's M with -inf above the diagonal).
autograd::Tensor subsequent_mask(std::int64_t n);
// ids [B, T] -> [B, 1, T], 1 where ids != pad: no query attends to padding.
autograd::Tensor padding_mask(const autograd::Tensor& ids, std::int64_t pad);
// Elementwise AND of two masks that broadcast together (padding and causal).
autograd::Tensor mask_and(const autograd::Tensor& a, const autograd::Tensor& b);

}  // namespace nn
