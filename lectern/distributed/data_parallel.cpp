#include "lectern/distributed/data_parallel.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace distributed {

using autograd::Dtype;
using autograd::Tensor;

DataParallel::DataParallel(nn::Module& model, Communicator& comm) : model_(model), comm_(comm) {
    autograd::NoGradGuard no_grad;
    for (auto& [name, p] : model_.named_parameters())
        comm_.broadcast(p.raw_data(), static_cast<std::size_t>(p.numel()) * autograd::dtype_size(p.dtype()));
}

std::pair<std::int64_t, std::int64_t> DataParallel::share(std::int64_t n, const Communicator& comm) {
    const std::int64_t size = comm.size(), r = comm.rank(), base = n / size, extra = n % size;
    const std::int64_t begin = r * base + std::min(r, extra);
    return {begin, begin + base + (r < extra ? 1 : 0)};
}

double DataParallel::weight(std::int64_t local_count) {
    const std::int64_t total = comm_.sum(local_count);
    if (total <= 0) throw std::runtime_error("DataParallel::weight: the batch has no counted items on any rank");
    return static_cast<double>(local_count) / static_cast<double>(total);
}

namespace {

template <class T>
void sum_in_rank_order(const std::vector<unsigned char>& all, std::size_t bytes, int ranks, T* out) {
    const std::size_t n = bytes / sizeof(T);
    std::memcpy(out, all.data(), bytes);  // rank 0's part, then each next rank's added in turn
    for (int r = 1; r < ranks; ++r) {
        const auto* part = reinterpret_cast<const T*>(all.data() + static_cast<std::size_t>(r) * bytes);
        for (std::size_t i = 0; i < n; ++i) out[i] += part[i];
    }
}

}  // namespace

void DataParallel::sync_gradients() {
    if (comm_.size() == 1) return;
    const auto start = std::chrono::steady_clock::now();
    auto params = model_.named_parameters();
    if (params.empty()) return;
    const Dtype dtype = params.front().second.dtype();
    const std::size_t element = autograd::dtype_size(dtype);
    std::size_t total = 0;
    for (const auto& [name, p] : params) {
        if (p.dtype() != dtype)
            throw std::runtime_error(fmt::format("DataParallel: parameter '{}' is {}, the others {}", name,
                                                 autograd::dtype_name(p.dtype()), autograd::dtype_name(dtype)));
        total += static_cast<std::size_t>(p.numel());
    }
    std::vector<unsigned char> flat(total * element, 0);
    std::size_t at = 0;
    for (const auto& [name, p] : params) {
        const std::size_t bytes = static_cast<std::size_t>(p.numel()) * element;
        if (Tensor g = p.grad(); g.defined()) std::memcpy(flat.data() + at, g.raw_data(), bytes);
        at += bytes;
    }
    const std::vector<unsigned char> all = comm_.all_gather(flat.data(), flat.size());
    if (dtype == Dtype::float64)
        sum_in_rank_order(all, flat.size(), comm_.size(), reinterpret_cast<double*>(flat.data()));
    else sum_in_rank_order(all, flat.size(), comm_.size(), reinterpret_cast<float*>(flat.data()));
    at = 0;
    autograd::NoGradGuard no_grad;
    for (auto& [name, p] : params) {
        const std::size_t bytes = static_cast<std::size_t>(p.numel()) * element;
        Tensor g = Tensor::empty(p.shape(), dtype);
        std::memcpy(g.raw_data(), flat.data() + at, bytes);
        p.set_grad(g);
        at += bytes;
    }
    sync_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace distributed
