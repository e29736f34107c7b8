#include "lectern/data/image_batches.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

namespace data {

using namespace autograd;

ImageBatches::ImageBatches(const ImageSet& set, std::int64_t batch_size, double mean, double std, bool shuffle,
                           std::uint64_t seed)
    : set_(set), batch_size_(batch_size), mean_(mean), std_(std), shuffle_(shuffle), gen_(seed) {
    if (batch_size < 1) throw ValueError(fmt::format("ImageBatches: batch size {} must be positive", batch_size));
    if (!(std > 0)) throw ValueError(fmt::format("ImageBatches: std {} must be positive", std));
    order_.resize(static_cast<std::size_t>(set.labels.numel()));
    reset();
}

void ImageBatches::reset() {
    std::iota(order_.begin(), order_.end(), 0);
    if (shuffle_)  // Fisher-Yates with the seeded generator: the same order on every machine
        for (std::size_t i = order_.size(); i > 1; --i)
            std::swap(order_[i - 1], order_[static_cast<std::size_t>(gen_.randint(static_cast<std::int64_t>(i)))]);
    pos_ = 0;
}

void ImageBatches::set_position(const Position& p) {
    const std::size_t n = order_.size();
    std::vector<bool> seen(n, false);
    bool permutation = p.order.size() == n;
    for (std::size_t i = 0; permutation && i < n; ++i) {
        const std::int64_t k = p.order[i];
        permutation = k >= 0 && static_cast<std::size_t>(k) < n && !seen[static_cast<std::size_t>(k)];
        if (permutation) seen[static_cast<std::size_t>(k)] = true;
    }
    if (!permutation)
        throw ValueError(fmt::format("ImageBatches: the saved order is not an order of these {} images", n));
    if (p.pos < 0 || p.pos > static_cast<std::int64_t>(n))
        throw ValueError(fmt::format("ImageBatches: position {} is outside [0, {}]", p.pos, n));
    gen_.set_state(p.generator);
    order_ = p.order;
    pos_ = p.pos;
}

namespace {
constexpr std::size_t kWords = std::tuple_size_v<Generator::State>;  // the generator's state, in state()'s first places
}  // namespace

Tensor ImageBatches::state() const {
    const Position p = position();
    Tensor t = Tensor::empty({static_cast<std::int64_t>(kWords + 1 + p.order.size())}, Dtype::int64);
    std::int64_t* out = t.data<std::int64_t>();
    for (std::size_t i = 0; i < kWords; ++i) out[i] = static_cast<std::int64_t>(p.generator[i]);  // the words' bits
    out[kWords] = p.pos;
    std::copy(p.order.begin(), p.order.end(), out + kWords + 1);
    return t;
}

void ImageBatches::set_state(const Tensor& state) {
    const auto n = static_cast<std::int64_t>(order_.size());
    if (state.dtype() != Dtype::int64 || state.dim() != 1 || state.numel() != static_cast<std::int64_t>(kWords) + 1 + n)
        throw ValueError(fmt::format("ImageBatches: a state of {} images is int64 [{}], got {} {}", n,
                                     static_cast<std::int64_t>(kWords) + 1 + n, dtype_name(state.dtype()),
                                     shape_str(state.shape())));
    const std::int64_t* in = state.data<std::int64_t>();
    Position p{{}, std::vector<std::int64_t>(in + kWords + 1, in + kWords + 1 + n), in[kWords]};
    for (std::size_t i = 0; i < kWords; ++i) p.generator[i] = static_cast<std::uint64_t>(in[i]);
    set_position(p);
}

std::int64_t ImageBatches::batches_per_epoch() const { return (size() + batch_size_ - 1) / batch_size_; }

bool ImageBatches::next(ImageBatch& out) {
    const std::int64_t n = std::min(batch_size_, size() - pos_);
    if (n <= 0) return false;
    Shape shape = set_.images.shape();
    const std::int64_t pixels = numel(shape) / shape[0];
    shape[0] = n;
    out.images = Tensor::empty(shape, Dtype::float32);
    out.labels = Tensor::empty({n}, Dtype::int64);
    const float* src = set_.images.data<float>();
    float* dst = out.images.data<float>();
    const auto m = static_cast<float>(mean_), inv = static_cast<float>(1 / std_);
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t k = order_[static_cast<std::size_t>(pos_ + i)];
        for (std::int64_t p = 0; p < pixels; ++p) dst[i * pixels + p] = (src[k * pixels + p] - m) * inv;
        out.labels.data<std::int64_t>()[i] = set_.labels.data<std::int64_t>()[k];
    }
    pos_ += n;
    return true;
}

std::pair<double, double> pixel_statistics(const ImageSet& set) {
    const float* p = set.images.data<float>();
    const std::int64_t n = set.images.numel();
    double sum = 0, sq = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        sum += p[i];
        sq += static_cast<double>(p[i]) * p[i];
    }
    double mean = sum / static_cast<double>(n);
    return {mean, std::sqrt(sq / static_cast<double>(n) - mean * mean)};
}

}  // namespace data
