#pragma once
// A log axis a student can read to two digits: the data's range padded by a
// few percent in log space (not out to whole decades), and labels where they
// help: every power of ten over a long range, 1, 2 and 5 times them over one
// of less than two decades, and every digit, or nice linear steps, over
// shorter ones still.
#include <string>
#include <vector>

namespace plot {

struct Tick {
    double at;          // log10 of the value
    std::string label;  // PLplot text ("10#u-3#d" is 10^-3); empty for a minor tick
};

struct LogAxis {
    double lo, hi;            // the axis's ends, log10
    std::vector<Tick> ticks;  // labelled ticks, then unlabelled minor ones, all within lo..hi
};

// lo, hi: log10 of the data's least and greatest values (lo <= hi).
LogAxis log_axis(double lo, double hi);

}  // namespace plot
