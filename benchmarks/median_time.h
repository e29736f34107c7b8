#pragma once
// The benchmarks' one timer: a warm-up call, then the median of `runs` calls.
#include <algorithm>
#include <chrono>
#include <vector>

namespace benchmarks {

// Seconds per call of f(), the median of `runs` after one warm-up call (the
// caching allocator and OpenBLAS's buffers fill on the first).
template <class F>
double median_seconds(F f, int runs = 9) {
    std::vector<double> t;
    f();
    for (int i = 0; i < runs; ++i) {
        auto start = std::chrono::steady_clock::now();
        f();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

}  // namespace benchmarks
