// The Tensor's method forms of common ops: x.reshape(s) is autograd::reshape(x, s).
#include "lectern/autograd/ops/concat.h"
#include "lectern/autograd/ops/reduce.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/ops/transpose.h"
#include "lectern/autograd/tensor.h"

namespace autograd {

Tensor Tensor::reshape(const Shape& s) const { return autograd::reshape(*this, s); }
Tensor Tensor::transpose(std::int64_t d0, std::int64_t d1) const { return autograd::transpose(*this, d0, d1); }
Tensor Tensor::permute(const Shape& dims) const { return autograd::permute(*this, dims); }
Tensor Tensor::unsqueeze(std::int64_t d) const { return autograd::unsqueeze(*this, d); }
Tensor Tensor::squeeze(std::int64_t d) const { return autograd::squeeze(*this, d); }
Tensor Tensor::narrow(std::int64_t d, std::int64_t start, std::int64_t length) const {
    return autograd::narrow(*this, d, start, length);
}
Tensor Tensor::sum() const { return autograd::sum(*this); }
Tensor Tensor::sum(std::int64_t d, bool keepdim) const { return autograd::sum(*this, d, keepdim); }
Tensor Tensor::mean() const { return autograd::mean(*this); }
Tensor Tensor::mean(std::int64_t d, bool keepdim) const { return autograd::mean(*this, d, keepdim); }

}  // namespace autograd
