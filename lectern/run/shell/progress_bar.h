#pragma once
// The progress bar every example shows while it trains:
//   [##########..........]  120/400  loss 1.234  lr 1.0e-03  5.1k tok/s  0:12 left
// On a terminal it redraws one line; in a log (CI, a pipe) it prints a line
// every tenth of the way, so logs stay short.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "lectern/run/shell/console.h"

namespace run {

class ProgressBar {
public:
    // `unit` names what the rate counts ("tok", "img").
    ProgressBar(std::int64_t total, std::string unit)
        : total_(total), unit_(std::move(unit)), tty_(isatty(fileno(stdout))), start_(Clock::now()) {}

    // Called after each step with the number of items it processed and the
    // metrics to show (e.g. "loss 1.234  lr 1.0e-03").
    void update(std::int64_t step, std::int64_t items, const std::string& metrics) {
        items_ += items;
        double elapsed = seconds();
        double rate = elapsed > 0 ? static_cast<double>(items_) / elapsed : 0;
        double left = step > 0 ? elapsed / static_cast<double>(step) * static_cast<double>(total_ - step) : 0;
        bool last = step == total_;
        if (!tty_ && !last && step * 10 / total_ == last_decile_) return;
        last_decile_ = step * 10 / total_;
        constexpr int kWidth = 20;
        int filled = static_cast<int>(kWidth * step / std::max<std::int64_t>(total_, 1));
        std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
        say("{}[{}] {:>{}}/{}  {}  {} {}/s  {} left{}", tty_ ? "\r" : "", bar, step, std::to_string(total_).size(),
            total_, metrics, human(rate), unit_, clock(left), tty_ ? "\033[K" : "\n");
        if (tty_ && last) say("\n");
        std::fflush(stdout);
    }

    double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    static std::string clock(double s) {
        auto t = static_cast<std::int64_t>(s + 0.5);
        return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                         : fmt::format("{}:{:02}", t / 60, t % 60);
    }

private:
    using Clock = std::chrono::steady_clock;
    static std::string human(double x) {
        return x >= 1e6   ? fmt::format("{:.1f}M", x / 1e6)
               : x >= 1e3 ? fmt::format("{:.1f}k", x / 1e3)
                          : fmt::format("{:.0f}", x);
    }
    std::int64_t total_;
    std::string unit_;
    bool tty_;
    Clock::time_point start_;
    std::int64_t items_ = 0;
    std::int64_t last_decile_ = -1;
};

}  // namespace run
