#include "lectern/data/batches.h"

#include <algorithm>

#include <fmt/format.h>

namespace data {

using namespace autograd;

Batches::Batches(Tensor x, Tensor y, std::int64_t batch, bool shuffle, Generator& gen)
    : x_(std::move(x)), y_(std::move(y)), n_(0), batch_(batch), shuffle_(shuffle), gen_(gen) {
    check_defined("Batches", x_);
    check_defined("Batches", y_);
    if (x_.dim() == 0 || y_.dim() == 0 || x_.size(0) != y_.size(0) || x_.size(0) == 0)
        throw ShapeError(fmt::format("Batches: x {} and y {} must hold the same number n >= 1 of rows along dim 0",
                                     shape_str(x_.shape()), shape_str(y_.shape())));
    if (batch < 1) throw ValueError(fmt::format("Batches: batch {} must be >= 1", batch));
    n_ = x_.size(0);
}

Batches::iterator Batches::begin() {
    order_ = shuffle_ ? randperm(n_, gen_) : arange(n_, Dtype::int64);
    return iterator(this, 0);
}

Batches::Batch Batches::iterator::operator*() const {
    const Batches& b = *owner_;
    const Tensor rows = narrow(b.order_, 0, start_, std::min(b.batch_, b.n_ - start_));
    NoGradGuard no_grad;  // the data set's rows, not a step of a graph
    return {index_select(b.x_, 0, rows), index_select(b.y_, 0, rows)};
}

}  // namespace data
