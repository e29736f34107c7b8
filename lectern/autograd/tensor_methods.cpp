// The Tensor's method forms of common ops: x.reshape(s) is autograd::reshape(x, s).
#include "lectern/autograd/ops/compare.h"
#include "lectern/autograd/ops/concat.h"
#include "lectern/autograd/ops/gather.h"
#include "lectern/autograd/ops/index_select.h"
#include "lectern/autograd/ops/masked_fill.h"
#include "lectern/autograd/ops/masked_select.h"
#include "lectern/autograd/ops/matmul.h"
#include "lectern/autograd/ops/minimum_maximum.h"
#include "lectern/autograd/ops/reduce.h"
#include "lectern/autograd/ops/topk.h"
#include "lectern/autograd/ops/reshape.h"
#include "lectern/autograd/ops/select.h"
#include "lectern/autograd/ops/slice.h"
#include "lectern/autograd/ops/softmax.h"
#include "lectern/autograd/ops/transpose.h"
#include "lectern/autograd/ops/unary.h"
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
Tensor Tensor::sum(const Shape& dims, bool keepdim) const { return autograd::sum(*this, dims, keepdim); }
Tensor Tensor::mean(const Shape& dims, bool keepdim) const { return autograd::mean(*this, dims, keepdim); }
Tensor Tensor::max(std::int64_t d, bool keepdim) const { return autograd::max(*this, d, keepdim); }
Tensor Tensor::argmax(std::int64_t d, bool keepdim) const { return autograd::argmax(*this, d, keepdim); }
Tensor Tensor::min(std::int64_t d, bool keepdim) const { return autograd::min(*this, d, keepdim); }
Tensor Tensor::argmin(std::int64_t d, bool keepdim) const { return autograd::argmin(*this, d, keepdim); }
Tensor Tensor::prod(std::int64_t d, bool keepdim) const { return autograd::prod(*this, d, keepdim); }
Tensor Tensor::var() const { return autograd::var(*this); }
Tensor Tensor::var(std::int64_t d, bool keepdim, std::int64_t correction) const {
    return autograd::var(*this, d, keepdim, correction);
}
Tensor Tensor::std() const { return autograd::std(*this); }
Tensor Tensor::std(std::int64_t d, bool keepdim, std::int64_t correction) const {
    return autograd::std(*this, d, keepdim, correction);
}
Tensor Tensor::select(std::int64_t d, std::int64_t index) const { return autograd::select(*this, d, index); }
Tensor Tensor::operator[](std::int64_t index) const { return autograd::select(*this, 0, index); }
Tensor Tensor::operator[](const Tensor& mask) const { return autograd::boolean_index(*this, mask); }
Tensor Tensor::index(const Tensor& mask) const { return autograd::boolean_index(*this, mask); }
Tensor Tensor::slice(std::int64_t d, std::int64_t start, std::int64_t end, std::int64_t step) const {
    return autograd::slice(*this, d, start, end, step);
}
Tensor Tensor::gather(std::int64_t d, const Tensor& index) const { return autograd::gather(*this, d, index); }
Tensor Tensor::index_select(std::int64_t d, const Tensor& index) const {
    return autograd::index_select(*this, d, index);
}
Tensor Tensor::masked_fill(const Tensor& mask, double value) const { return autograd::masked_fill(*this, mask, value); }
Tensor Tensor::masked_select(const Tensor& mask) const { return autograd::masked_select(*this, mask); }
TopK Tensor::topk(std::int64_t k, std::int64_t d, bool largest) const { return autograd::topk(*this, k, d, largest); }
Tensor Tensor::matmul(const Tensor& other) const { return autograd::matmul(*this, other); }
Tensor Tensor::softmax(std::int64_t d) const { return autograd::softmax(*this, d); }
Tensor Tensor::log_softmax(std::int64_t d) const { return autograd::log_softmax(*this, d); }
Tensor Tensor::pow(double p) const { return autograd::pow(*this, p); }
Tensor Tensor::exp() const { return autograd::exp(*this); }
Tensor Tensor::log() const { return autograd::log(*this); }
Tensor Tensor::log1p() const { return autograd::log1p(*this); }
Tensor Tensor::sqrt() const { return autograd::sqrt(*this); }
Tensor Tensor::abs() const { return autograd::abs(*this); }
Tensor Tensor::sin() const { return autograd::sin(*this); }
Tensor Tensor::cos() const { return autograd::cos(*this); }
Tensor Tensor::tanh() const { return autograd::tanh(*this); }
Tensor Tensor::sigmoid() const { return autograd::sigmoid(*this); }
Tensor Tensor::relu() const { return autograd::relu(*this); }
Tensor Tensor::clamp(double lo, double hi) const { return autograd::clamp(*this, lo, hi); }
Tensor Tensor::maximum(const Tensor& other) const { return autograd::maximum(*this, other); }
Tensor Tensor::minimum(const Tensor& other) const { return autograd::minimum(*this, other); }
Tensor Tensor::eq(const Tensor& other) const { return autograd::eq(*this, other); }
Tensor Tensor::ne(const Tensor& other) const { return autograd::ne(*this, other); }
Tensor Tensor::lt(const Tensor& other) const { return autograd::lt(*this, other); }
Tensor Tensor::gt(const Tensor& other) const { return autograd::gt(*this, other); }
Tensor Tensor::le(const Tensor& other) const { return autograd::le(*this, other); }
Tensor Tensor::ge(const Tensor& other) const { return autograd::ge(*this, other); }

}  // namespace autograd
