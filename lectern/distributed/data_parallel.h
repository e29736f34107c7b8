#pragma once
// Data parallelism: every rank holds the same model, computes the gradient of
// its share of each batch, and the gradients are summed over the ranks before
// the optimizer's step, so every rank takes the same step and the parameters
// stay equal, bit for bit.
//
//   distributed::DataParallel dp(*model);              // rank 0's weights on every rank
//   auto [begin, end] = dp.share(batch_size);           // this rank's rows of the batch
//   double w = dp.weight(my_counted_tokens);            // n_r / n, the share of the batch's counted tokens
//   (loss_r * w).backward();                            // loss_r: the mean over this rank's tokens
//   dp.sync_gradients();                                // sum over ranks: the gradient of the batch's mean
//   optimizer.step();
//
// Weighting by counted tokens matters: a mean of per-rank means is wrong when
// ranks hold different numbers of tokens (padding, ignored targets).
#include <cstdint>
#include <utility>

#include "lectern/distributed/communicator.h"
#include "lectern/nn/module.h"

namespace distributed {

class DataParallel {
public:
    // Broadcasts rank 0's parameters, so the ranks start equal whatever their seeds.
    explicit DataParallel(nn::Module& model, Communicator& comm = Communicator::world());

    // Rows [begin, end) of a batch of `n` rows that this rank computes: the
    // ranks take consecutive parts, the first n % size ranks one row more.
    std::pair<std::int64_t, std::int64_t> share(std::int64_t n) const { return share(n, comm_); }
    static std::pair<std::int64_t, std::int64_t> share(std::int64_t n, const Communicator& comm);

    // n_r / n: this rank's part of the batch's counted items (one collective).
    double weight(std::int64_t local_count);

    // Sums every parameter's gradient over the ranks: one all-gather of one flat
    // buffer, added in rank order, so every rank holds the same bits. A
    // parameter without a gradient counts as zeros.
    void sync_gradients();

    const Communicator& communicator() const { return comm_; }
    // Seconds spent in sync_gradients so far: the price of the job's communication.
    double sync_seconds() const { return sync_seconds_; }

private:
    nn::Module& model_;
    Communicator& comm_;
    double sync_seconds_ = 0;
};

}  // namespace distributed
