#pragma once
// Mini-batches of a data set held as two tensors, for a range-for, as a PyTorch user
// writes `for xb, yb in DataLoader(TensorDataset(x, y), batch_size, shuffle)`:
//
//   data::Batches batches(x, y, 32, /*shuffle=*/true, gen);
//   for (int epoch = 0; epoch < epochs; ++epoch)
//       for (auto [xb, yb] : batches) { ... }
//
// Each loop over it is an epoch: begin() draws a new order by autograd::randperm(n, gen)
// when shuffling (the same generator state gives the same batches on every machine), or
// keeps 0, 1, ..., n - 1. The batches are rows of x and y along dim 0, copied; the last
// one is short when batch does not divide n.
#include <cstdint>

#include "lectern/autograd/autograd.h"

namespace data {

class Batches {
public:
    struct Batch {
        autograd::Tensor x, y;
    };
    class iterator {
    public:
        Batch operator*() const;
        iterator& operator++() {
            start_ += owner_->batch_;
            return *this;
        }
        bool operator==(const iterator& other) const { return start_ == other.start_; }

    private:
        friend class Batches;
        iterator(const Batches* owner, std::int64_t start) : owner_(owner), start_(start) {}
        const Batches* owner_;
        std::int64_t start_;
    };

    // x and y of any dtypes and trailing shapes with the same size n >= 1 along dim 0; batch >= 1.
    // gen is kept by reference and must outlive the Batches.
    Batches(autograd::Tensor x, autograd::Tensor y, std::int64_t batch, bool shuffle, autograd::Generator& gen);

    iterator begin();  // a new epoch
    iterator end() const { return iterator(this, batches() * batch_); }
    std::int64_t batches() const { return (n_ + batch_ - 1) / batch_; }  // per epoch: ceil(n / batch)

private:
    autograd::Tensor x_, y_, order_;
    std::int64_t n_, batch_;
    bool shuffle_;
    autograd::Generator& gen_;
};

}  // namespace data
