#pragma once
// The process's peak resident set size so far, in MB (getrusage's ru_maxrss,
// which Linux counts in KiB).
#include <sys/resource.h>

namespace benchmarks {

inline double peak_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace benchmarks
