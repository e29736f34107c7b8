#pragma once
// One output for a whole sequence (002 "Output transformations": "apply an
// output transformation to a special task-specific input token or to the
// average of all tokens"): the encoder and the ViT classify a sequence from
// one vector, taken one of two ways.
#include <string>

#include "lectern/autograd/autograd.h"

namespace models {

using autograd::Tensor;

enum class Pooling {
    cls,   // the output at the [CLASS] position, h_0 (002's ViT: y = LN(z_L^0))
    mean,  // the mean of the token outputs, (1 / sum_t m_t) sum_t m_t h_t (no [CLASS] token)
};

// h [B, T, D] -> [B, D]. cls: h[:, 0] (the [CLASS] token sits first; `mask`
// is not read). mean: the mean over the tokens t with mask m_t != 0, where
// `mask` is int64 [B, 1, T] (nn::padding_mask's) or [B, T]; without a mask
// every token counts. Backward: cls routes dh_0 = dy; mean gives each counted
// token dh_t = dy / sum_t m_t and a padding token zero. ShapeError for a mask
// of another shape, ValueError for a row whose tokens are all padding.
Tensor pool_tokens(const Tensor& h, Pooling pooling, const Tensor& mask = Tensor());

// "cls" or "mean" (the flags' spelling), and back; ValueError for another name.
std::string pooling_name(Pooling pooling);
Pooling parse_pooling(const std::string& name);

}  // namespace models
