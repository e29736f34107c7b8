#pragma once
// Mini-batches of images: normalised to mean 0 and variance 1 with the
// training set's statistics, in an order reshuffled each epoch by a seeded
// generator.
#include <cstdint>
#include <vector>

#include "lectern/data/idx.h"

namespace data {

struct ImageBatch {
    autograd::Tensor images;  // float32 [B, C, H, W], normalised
    autograd::Tensor labels;  // int64 [B]
};

class ImageBatches {
public:
    // `mean` and `std` are applied to every pixel: (x - mean) / std.
    ImageBatches(const ImageSet& set, std::int64_t batch_size, double mean, double std, bool shuffle,
                 std::uint64_t seed);
    // Starts an epoch: reshuffles (if shuffling) and rewinds.
    void reset();
    bool next(ImageBatch& out);  // false at the end of the epoch

    // Where the epoch stands, as one tensor, int64 [6 + 1 + N] for N images: the generator's six
    // words, how far into the epoch, then the epoch's order. A run saved and resumed with it
    // draws the same batches as one that never stopped. What a checkpoint's run record holds, as
    // it holds a generator's state (run::generator_tensor); a copy, not a view of the batches.
    autograd::Tensor state() const;
    // Restores state()'s tensor: ValueError unless it is int64 [6 + 1 + N] holding an order of
    // this set's N images and a place in it.
    void set_state(const autograd::Tensor& state);
    std::int64_t batches_per_epoch() const;
    std::int64_t size() const { return set_.labels.numel(); }

private:
    struct Position {
        autograd::Generator::State generator;
        std::vector<std::int64_t> order;
        std::int64_t pos;
    };
    Position position() const { return {gen_.state(), order_, pos_}; }
    // ValueError unless `p` is an order of this set's images and a place in it.
    void set_position(const Position& p);

    const ImageSet& set_;
    std::int64_t batch_size_;
    double mean_, std_;
    bool shuffle_;
    autograd::Generator gen_;
    std::vector<std::int64_t> order_;
    std::int64_t pos_ = 0;
};

// Mean and standard deviation of every pixel of a set (in [0, 255] units).
std::pair<double, double> pixel_statistics(const ImageSet& set);

}  // namespace data
