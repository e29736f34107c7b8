#pragma once
// How a cost grows with a size, as the cost experiments measure it: the time of a call, and
// the exponent of a power law fitted on log-log axes (time ~ c T^slope: a slope of 2 is
// quadratic, 004 table 15.1's O(n^2 d); 1 is linear).
//
// Two clocks: the wall clock, what a user waits, and the work. A timed call runs on one
// thread (the kernels' threads set to 1 for its length, OneThread), and the work is that
// thread's CPU time. It counts nothing else: not the time the scheduler gives other programs
// on a shared machine (the wall clock counts it, more of it in longer calls, which bends a
// fitted slope upwards), and not the time the pool's other threads spend waiting for work (a
// process's CPU time counts that). A cost's growth does not depend on the thread count.
#include <functional>
#include <vector>

namespace run::experiments {

struct Timing {
    double wall = 0, cpu = 0;  // seconds, each the median of its repeats; cpu is the one thread's
};

// The CPU time the calling thread has used so far, in seconds.
double thread_cpu_seconds();

// The kernels on one thread while it lives; the thread count before, after.
class OneThread {
public:
    OneThread();
    ~OneThread();
    OneThread(const OneThread&) = delete;
    OneThread& operator=(const OneThread&) = delete;

private:
    int before_;
};

// Times f() `repeats` times after one untimed call (first touch of memory), on one thread.
Timing median_time(const std::function<void()>& f, int repeats);

// The least-squares slope of log y against log x; needs two or more points, all > 0.
double log_log_slope(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace run::experiments
