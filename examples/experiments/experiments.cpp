// The notes' claims as experiments: each runs the comparison a claim implies,
// prints a table, draws its figures, and ends with one line saying whether the
// claim held, computed from what it measured (docs/experiments.md).
//   ./build/examples/experiments --list
//   ./build/examples/experiments scale --figures figures
//   ./build/examples/experiments positions --quick      the test suite's form, in seconds
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/run/console.h"
#include "examples/experiments/registry.h"
#include "lectern/run/flags.h"
#include "lectern/run/machine_flags.h"
#include "lectern/run/output_files.h"
#include "lectern/run/run_program.h"

namespace {

using run::experiments::Experiment;

void list(const std::vector<Experiment>& all) {
    std::size_t width = 0;
    for (const Experiment& e : all) width = std::max(width, e.name.size());
    for (const Experiment& e : all) run::say("{:<{}}  {}\n", e.name, width, e.claim);
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
    app.add_flag("--quick", o.quick, "the same measurement, smaller: seconds instead of minutes (the test suite's form)");
    app.add_option("--figures", o.figures, "draw the figures into this folder (PNG and SVG)")->check(run::path_value());
    app.add_option("--seed", o.seed, "the first seed; experiments over several seeds use the next ones too")
        ->check(run::seed_value());
    run::add_machine_flags(app, machine);
    if (int status = run::parse_flags(app, argc, argv, "experiments",
                                           [&] {
                                               if (!show_list && name.empty())
                                                   throw CLI::ValidationError("name", "name an experiment, or --list");
                                               run::check_output_folder("--figures", o.figures);
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
