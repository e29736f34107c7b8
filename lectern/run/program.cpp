#include "lectern/run/program.h"

#include <cstdio>

#include "lectern/run/data_parallel_run.h"
#include "lectern/run/flags.h"
#include "lectern/run/run_program.h"

namespace run {

void add_common_flags(CLI::App& app, CommonFlags& flags) {
    add_machine_flags(app, flags.machine);
    app.add_flag("--detect-anomaly", flags.detect_anomaly,
                 "check every op's output and gradient, and name the first op that makes a NaN or an infinity (slow)");
}

int program_main(const char* program, CLI::App& app, int argc, char** argv, CommonFlags& common,
                 const std::function<void()>& check_flags, const std::function<int()>& work) {
    join_job();  // under mpirun: one rank of a data-parallel job
    // A line reaches a log as soon as it is printed, so a run killed with its
    // output redirected leaves the log of what it did.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    if (int status = parse_flags(app, argc, argv, program, check_flags); status >= 0) return status;
    return run_program(program, common.detect_anomaly, [&] {
        apply_machine_flags(common.machine, argv);
        return work();
    });
}

}  // namespace run
