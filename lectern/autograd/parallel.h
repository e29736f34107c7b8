#pragma once
// Loops split over the program's threads (autograd/threads.h), Lectern's own pool
// (autograd/thread_pool.h). The kernels of autograd and the optimizers use it. A body must write only its own indices' outputs;
// then no result depends on how the range was split. Sums that the parts keep apart
// (parallel_sums) are split by the shapes alone, so no result depends on the number of
// threads either: a run gives the same numbers to the bit on a laptop of any core count.
#include <algorithm>
#include <array>
#include <cstdint>

#include "lectern/autograd/allocator.h"
#include "lectern/autograd/thread_pool.h"

namespace autograd {

// Waking a thread costs about a microsecond: a thread gets at least this many
// elements' work (a few microseconds of a vectorised loop), or the loop stays on
// the calling thread.
inline constexpr std::int64_t kElementsPerThread = 1 << 13;

// How many contiguous parts parallel_for splits [0, n) into, where each index costs about
// `cost` elements' work (a row's length, say): one per thread, at most n, and 1 inside a
// parallel region.
inline std::int64_t parallel_parts(std::int64_t n, std::int64_t cost) {
    if (n <= 0 || detail::in_parallel()) return 1;
    const std::int64_t work = n * std::max<std::int64_t>(cost, 1);
    return std::max<std::int64_t>(1, std::min<std::int64_t>({detail::pool_threads(), n, work / kElementsPerThread}));
}

// body(part) for each part in [0, parts), on the pool's threads.
template <class Body>
void run_parts(std::int64_t parts, Body& body) {
    detail::run_parts(
        parts, [](void* context, std::int64_t part) { (*static_cast<Body*>(context))(part); }, &body);
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
    auto part = [&](std::int64_t t) { body(t, n * t / parts, n * (t + 1) / parts); };
    run_parts(parts, part);
}

// body(begin, end) over contiguous parts of [0, n), one per thread.
template <class Body>
void parallel_for(std::int64_t n, std::int64_t cost, Body body) {
    parallel_for_parts(n, cost, [&](std::int64_t, std::int64_t begin, std::int64_t end) { body(begin, end); });
}

// body(begin, end) over contiguous parts of [0, n) that begin on multiples of `align`, one
// per thread: a BLAS product's rows split so that every row takes the same place in the
// kernel's tiles whatever the number of parts (autograd/kernels/gemm.h).
template <class Body>
void parallel_for_aligned(std::int64_t n, std::int64_t cost, std::int64_t align, Body body) {
    const std::int64_t blocks = (n + align - 1) / align;
    parallel_for(blocks, cost * align,
                 [&](std::int64_t b0, std::int64_t b1) { body(b0 * align, std::min(n, b1 * align)); });
}

// An array that the parts of a loop sum into, each part into its own copy (parallel_sums).
template <class T>
struct PartSums {
    T* out;
    std::int64_t size;
};

// How many parts parallel_sums splits [0, n) into: 1, 2, 4 or 8 (kSumParts, a laptop's cores),
// so that 2, 4 or 8 threads share them evenly. Each part's copies cost a pass to zero them and
// one to add them, so a part gets at least kSumWorkPerCopy times their size in work (the
// indices' cost); fewer parts when the work is small. Never a number that depends on the threads.
inline constexpr std::int64_t kSumParts = 8;
inline constexpr std::int64_t kSumWorkPerCopy = 32;
inline std::int64_t sum_parts(std::int64_t n, std::int64_t cost, std::int64_t copy_size) {
    const std::int64_t work = std::max<std::int64_t>(n, 0) * std::max<std::int64_t>(cost, 1);
    const std::int64_t most = std::min<std::int64_t>(
        {kSumParts, n, work / kElementsPerThread, work / std::max<std::int64_t>(kSumWorkPerCopy * copy_size, 1)});
    std::int64_t parts = 1;
    while (parts * 2 <= most) parts *= 2;
    return parts;
}

// Sums over [0, n) split over the threads without two threads adding into one element:
// body(sums, begin, end) adds the terms of indices [begin, end) into sums[k], its part's own
// copy of outs[k] (part 0's copy is outs[k].out itself), every copy zeroed first. Then each
// element adds the other parts' copies in part order (a layer norm's dgamma and dbeta, a
// linear layer's dW and db). The parts are sum_parts(n, cost, ...), set by the shapes alone, and
// the threads share them out: the sums are the same to the bit on any number of threads.
template <class T, std::size_t N, class Body>
void parallel_sums(std::int64_t n, std::int64_t cost, const std::array<PartSums<T>, N>& outs, Body body) {
    std::int64_t part_size = 0;  // one part's copies, one after another
    for (const PartSums<T>& o : outs) part_size += o.size;
    const std::int64_t parts = sum_parts(n, cost, part_size);
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
    auto run_part = [&](std::int64_t part) { body(copies_of(part), n * part / parts, n * (part + 1) / parts); };
    run_parts(parts, run_part);
    if (parts == 1) return;
    std::int64_t offset = 0;  // of outs[k] in a part's copies
    for (const PartSums<T>& o : outs) {
        parallel_for(o.size, parts, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t part = 1; part < parts; ++part) {
                const T* copy = scratch + (part - 1) * part_size + offset;
                for (std::int64_t e = begin; e < end; ++e) o.out[e] += copy[e];
            }
        });
        offset += o.size;
    }
    deallocate(scratch);
}

}  // namespace autograd
