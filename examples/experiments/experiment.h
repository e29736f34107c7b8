#pragma once
// One of the notes' claims as an experiment a student runs:
//   ./build/examples/experiments NAME [--quick] [--figures DIR] [--seed N]
// Each experiment prints what it measured as a table, draws its figures, and
// ends with one verdict line computed from its numbers (report.h).
#include <cstdint>
#include <functional>
#include <string>

namespace run::experiments {

struct Options {
    bool quick = false;    // the test suite's form: the same measurement, smaller, in seconds
    std::string figures;   // the folder figures are drawn into; "" draws none
    std::uint64_t seed = 1;  // the first seed; an experiment over several seeds uses seed, seed + 1, ...
};

struct Experiment {
    std::string name;   // what the command line names it: "scale"
    std::string claim;  // the claim under test, with its note and section, in one line
    std::function<void(const Options&)> run;
};

}  // namespace run::experiments
