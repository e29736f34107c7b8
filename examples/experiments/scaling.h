#pragma once
// How a cost grows with a size, as the cost experiments measure it: the time of a call, and
// the exponent of a power law fitted on log-log axes (time ~ c T^slope: a slope of 2 is
// quadratic, 004 table 15.1's O(n^2 d); 1 is linear).
//
// Two clocks: the wall clock, what a user waits, and the CPU time of this process, what the
// work costs. On a machine shared with other programs the wall clock also counts the time
// the scheduler gave to them, more of it in longer calls, which bends a fitted slope upwards;
// the CPU time does not. (With several threads the CPU time adds theirs, spinning included.)
#include <functional>
#include <vector>

namespace run::experiments {

struct Timing {
    double wall = 0, cpu = 0;  // seconds, each the median of its repeats
};

// The CPU time this process has used so far, in seconds.
double process_cpu_seconds();

// Times f() `repeats` times after one untimed call (first touch of memory).
Timing median_time(const std::function<void()>& f, int repeats);

// The least-squares slope of log y against log x; needs two or more points, all > 0.
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace run::experiments
