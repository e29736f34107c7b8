#pragma once
// One of the notes' claims as an experiment a student runs:
//   ./build/examples/experiments NAME [--quick] [--figures DIR] [--seed N] [--seeds N] [--d-k W,...] [--layers N]
// Each experiment prints what it measured as a table, draws its figures, and
// ends with one verdict line computed from its numbers (report.h).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lectern/run/shell/memory_budget.h"

namespace run::experiments {

struct Options {
    bool quick = false;      // the test suite's smoke test: each arm in seconds, one seed, no verdict (report.h)
    std::string figures;     // the folder figures are drawn into; "" draws none
    std::uint64_t seed = 1;  // the first seed; an experiment over several seeds uses seed, seed + 1, ...
    // What a student varies, each taken only by the experiments that name it in Experiment::knobs;
    // unset, every experiment runs its own choice.
    int seeds = 0;                  // --seeds: how many seeds each arm trains from; 0: the experiment's own
    std::vector<std::int64_t> d_k;  // --d-k: the widths of the heads trained; empty: the experiment's own
    std::int64_t layers = 0;        // --layers: N, layers in each stack; 0: the experiment's own
};

// The experiment's own choice unless the command line gave one.
inline int seeds_or(const Options& o, int own) { return o.seeds > 0 ? o.seeds : own; }
inline std::int64_t layers_or(const Options& o, std::int64_t own) { return o.layers > 0 ? o.layers : own; }

// What the largest run of an experiment holds at once: one arm's model, trained (its gradient
// and Adam's moments beside every weight) or only run forward.
struct Footprint {
    run::MemoryEstimate estimate;
    bool training = true;
};

struct Experiment {
    std::string name;   // what the command line names it: "scale"
    std::string claim;  // the claim under test, with its note and section, in one line
    std::function<void(const Options&)> run;
    std::vector<std::string> knobs =
        {};  // the flags beyond --seed and --quick it takes: "--seeds", "--d-k", "--layers"
    // Its largest run under these options, checked against the machine before any work. Every
    // experiment whose knobs size its models (--d-k, --layers) gives one; the others train at
    // fixed sizes, those of the test suite's runs.
    std::function<Footprint(const Options&)> footprint = {};
    // Its own checks of the options, beyond the knobs' ranges (CLI::ValidationError), before any work.
    std::function<void(const Options&)> check = {};
};

}  // namespace run::experiments
