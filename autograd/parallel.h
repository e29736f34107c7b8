#pragma once
// Loops split over the program's threads (autograd/threads.h): OpenMP's pool, which
// OpenBLAS shares. The kernels of autograd and the optimizers use it. A body must
// write only its own indices' outputs; then no result depends on how the range was
// split, nor on the number of threads.
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "autograd/allocator.h"

namespace autograd {

// Waking a thread costs about a microsecond: a thread gets at least this many
// elements' work (a few microseconds of a vectorised loop), or the loop stays on
// the calling thread.
inline constexpr std::int64_t kElementsPerThread = 1 << 13;

// How many contiguous parts parallel_for splits [0, n) into, where each index costs about
// `cost` elements' work (a row's length, say): one per thread, at most n, and 1 inside a
// parallel region.
inline std::int64_t parallel_parts(std::int64_t n, std::int64_t cost) {
    if (n <= 0 || omp_in_parallel()) return 1;
    const std::int64_t work = n * std::max<std::int64_t>(cost, 1);
    return std::max<std::int64_t>(1, std::min<std::int64_t>({omp_get_max_threads(), n, work / kElementsPerThread}));
}

// body(part, begin, end) for each of parallel_parts(n, cost) contiguous parts of [0, n), one
// per thread: for sums that each part keeps apart, to be added in part order.
template <class Body>
void parallel_for_parts(std::int64_t n, std::int64_t cost, Body body) {
    if (n <= 0) return;
    const std::int64_t parts = parallel_parts(n, cost);
    if (parts == 1) {
        body(std::int64_t{0}, std::int64_t{0}, n);
        return;
    }
#pragma omp parallel for num_threads(parts) schedule(static, 1)
    for (std::int64_t t = 0; t < parts; ++t) body(t, n * t / parts, n * (t + 1) / parts);
}

// body(begin, end) over contiguous parts of [0, n), one per thread.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t cost, Body body) {
    parallel_for_parts(n, cost, [&](std::int64_t, std::int64_t begin, std::int64_t end) { body(begin, end); });
}

// An array that the parts of a loop sum into, each part into its own copy (parallel_sums).
template <class T>
struct PartSums {
    T* out;
    std::int64_t size;
};

// Sums over [0, n) split over the threads without two threads adding into one element:
// body(sums, begin, end) adds the terms of indices [begin, end) into sums[k], its part's own
// copy of outs[k] (part 0's copy is outs[k].out itself), every copy zeroed first. The other
// parts' copies are then added into outs in part order (a layer norm's dgamma and dbeta, a
// linear layer's dW and db). The order is fixed for a number of threads: sums can differ in
// the last bit between thread counts, never between runs.
template <class T, std::size_t N, class Body>
void parallel_sums(std::int64_t n, std::int64_t cost, const std::array<PartSums<T>, N>& outs, Body body) {
    const std::int64_t parts = parallel_parts(n, cost);
    std::int64_t part_size = 0;  // one part's copies, one after another
    for (const PartSums<T>& o : outs) part_size += o.size;
    const std::size_t bytes = static_cast<std::size_t>((parts - 1) * part_size) * sizeof(T);
    T* scratch = bytes ? static_cast<T*>(allocate(bytes)) : nullptr;  // parts 1 and on
    auto copies_of = [&](std::int64_t part) {
        std::array<T*, N> sums;
        T* next = part == 0 ? nullptr : scratch + (part - 1) * part_size;
        for (std::size_t k = 0; k < N; ++k) {
            sums[k] = part == 0 ? outs[k].out : next;
            if (part > 0) next += outs[k].size;
            std::fill(sums[k], sums[k] + outs[k].size, T(0));
        }
        return sums;
    };
    parallel_for_parts(n, cost, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
        body(copies_of(part), begin, end);
    });
    if (n <= 0) copies_of(0);  // no part ran: the sums are 0
    for (std::int64_t part = 1; part < parts; ++part) {
        const T* copy = scratch + (part - 1) * part_size;
        for (const PartSums<T>& o : outs) {
            parallel_for(o.size, parts, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t e = begin; e < end; ++e) o.out[e] += copy[e];
            });
            copy += o.size;
        }
    }
    if (scratch) deallocate(scratch);
}

}  // namespace autograd
