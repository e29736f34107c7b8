// The notes' claims as experiments: each runs the comparison a claim implies,
// prints a table, draws its figures, and ends with one line saying whether the
// claim held, computed from what it measured (docs/experiments.md).
//   ./build/examples/experiments --list
//   ./build/examples/experiments scale --figures figures
//   ./build/examples/experiments positions --quick      the test suite's smoke test: seconds, no verdict
//   ./build/examples/experiments scale --d-k 512,1024 --layers 1 --seeds 3   what it varies, from the command line
#include <algorithm>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/run/shell/console.h"
#include "examples/experiments/registry.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/flags/machine_flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/run_program.h"

namespace {

using run::experiments::Experiment;

void list(const std::vector<Experiment>& all) {
    std::size_t width = 0;
    for (const Experiment& e : all) width = std::max(width, e.name.size());
    for (const Experiment& e : all) {
        std::string knobs;
        for (const std::string& k : e.knobs) knobs += " " + k;
        run::say("{:<{}}  {}{}\n", e.name, width, e.claim, knobs.empty() ? "" : " | varies:" + knobs);
    }
}

// A knob given to an experiment that does not vary it is refused, naming those it does.
void check_knobs(const CLI::App& app, const Experiment& e) {
    for (const std::string flag : {"--seeds", "--d-k", "--layers"}) {
        if (app.count(flag) == 0 || std::find(e.knobs.begin(), e.knobs.end(), flag) != e.knobs.end()) continue;
        std::string takes;
        for (const std::string& k : e.knobs) takes += (takes.empty() ? "" : ", ") + k;
        throw CLI::ValidationError(flag, fmt::format("the experiment {} does not vary it (it takes {})", e.name,
                                                     takes.empty() ? "only --seed and --quick" : takes));
    }
}

// An experiment whose largest run would not fit in memory is refused, naming the knobs that size it.
void check_memory(const Experiment& e, const run::experiments::Options& o) {
    if (!e.footprint) return;
    std::string flags, choices;
    for (const std::string& k : e.knobs)
        if (k != "--seeds") flags += (flags.empty() ? "" : ", ") + k, choices += (choices.empty() ? "" : " or ") + k;
    const run::experiments::Footprint f = e.footprint(o);
    run::require_memory(flags.empty() ? "name" : flags, f.estimate, f.training,
                        fmt::format("choose a smaller {}", choices.empty() ? "experiment" : choices));
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<Experiment> all = run::experiments::all_experiments();
    std::vector<std::string> names;
    for (const Experiment& e : all) names.push_back(e.name);
    std::string name;
    bool show_list = false;
    run::experiments::Options o;
    run::MachineFlags machine;
    CLI::App app{"Runs one of the notes' claims as an experiment: a table, figures, and whether the claim held."};
    app.add_option("name", name, "the experiment (--list names them)")->check(CLI::IsMember(names));
    app.add_flag("--list", show_list, "name every experiment and its claim");
    app.add_flag("--quick", o.quick,
                 "a smoke test: every arm in seconds, on one seed, deciding nothing (the test suite's form)");
    app.add_option("--figures", o.figures, "draw the figures into this folder (PNG and SVG)")->check(run::path_value());
    app.add_option("--seed", o.seed, "the first seed; experiments over several seeds use the next ones too")
        ->check(run::seed_value());
    app.add_option("--seeds", o.seeds, "train every arm from this many seeds (--seed, --seed + 1, ...)")
        ->check(CLI::Range(1, 100));
    app.add_option("--d-k", o.d_k, "the head widths d_k to train, comma-separated (scale: one head, d_model = d_k)")
        ->delimiter(',')
        ->check(CLI::Range(std::int64_t{2}, std::int64_t{4096}));
    app.add_option("--layers", o.layers, "N, layers in each stack (the ViT's depth)")->check(CLI::Range(1, 64));
    run::add_machine_flags(app, machine);
    if (int status = run::parse_flags(app, argc, argv, "experiments",
                                      [&] {
                                          if (!show_list && name.empty())
                                              throw CLI::ValidationError("name", "name an experiment, or --list");
                                          run::check_output_folder("--figures", o.figures);
                                          for (const Experiment& e : all)
                                              if (e.name == name) {
                                                  check_knobs(app, e);
                                                  if (e.check) e.check(o);
                                                  check_memory(e, o);
                                              }
                                      });
        status >= 0)
        return status;
    if (show_list) {
        list(all);
        return 0;
    }
    return run::run_program("experiments", false, [&] {
        run::apply_machine_flags(machine, argv);
        for (const Experiment& e : all)
            if (e.name == name) {
                run::say("{}: {}{} | {}\n", e.name, e.claim, o.quick ? " (quick form)" : "",
                         run::machine_summary(machine));
                e.run(o);
            }
        return 0;
    });
}
