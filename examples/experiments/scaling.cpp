#include "examples/experiments/scaling.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/autograd/threads.h"

namespace run::experiments {

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

OneThread::OneThread() : before_(autograd::num_threads()) { autograd::set_num_threads(1); }
OneThread::~OneThread() { autograd::set_num_threads(before_); }

Timing median_time(const std::function<void()>& f, int repeats) {
    OneThread one;
    f();
    std::vector<double> wall, cpu;
    for (int i = 0; i < std::max(repeats, 1); ++i) {
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = thread_cpu_seconds();
        f();
        cpu.push_back(thread_cpu_seconds() - cpu_start);
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    return {wall[wall.size() / 2], cpu[cpu.size() / 2]};
}

double log_log_slope(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size() || x.size() < 2)
        throw autograd::ValueError(
            fmt::format("log_log_slope: needs two or more (x, y) pairs, got {} x and {} y", x.size(), y.size()));
    double mx = 0, my = 0;
    const auto n = static_cast<double>(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!(x[i] > 0) || !(y[i] > 0))
            throw autograd::ValueError(fmt::format("log_log_slope: point {} is ({}, {}), not positive", i, x[i], y[i]));
        mx += std::log(x[i]) / n, my += std::log(y[i]) / n;
    }
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double dx = std::log(x[i]) - mx;
        sxy += dx * (std::log(y[i]) - my), sxx += dx * dx;
    }
    if (sxx == 0) throw autograd::ValueError("log_log_slope: every x is the same");
    return sxy / sxx;
}

}  // namespace run::experiments
