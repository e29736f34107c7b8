#pragma once
// Loops split over the program's threads (autograd/threads.h): OpenMP's pool, which
// OpenBLAS shares. The kernels of autograd and the optimizers use it. A body must
// write only its own indices' outputs; then no result depends on how the range was
// split, nor on the number of threads.
#include <omp.h>

#include <algorithm>
#include <cstdint>

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

}  // namespace autograd
