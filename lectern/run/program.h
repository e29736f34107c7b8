#pragma once
// Every program's main, written once:
//
//   int main(int argc, char** argv) {
//       Options o;
//       CLI::App app{"Train a Transformer on the copy task, then decode held-out sequences."};
//       add_flags(app, o, argc, argv);        // the program's own, and run::add_common_flags
//       return run::program_main("copy_task", app, argc, argv, o.common, [&] { check_flags(app, o); },
//                                [&] { return work(app, o); });
//   }
//
// program_main joins the MPI job (rank 0 alone speaks), parses the flags and
// runs `check_flags`: a bad flag or a bad combination ends the program before
// any work, in one line "<program>: <reason> (see --help)" with status 2.
// Then the machine flags take effect (threads, BLAS kernels) and `work` runs,
// under anomaly mode with --detect-anomaly; an error ends it in one line with
// status 1, a stop signal with 128 + the signal's number (run_program.h).
#include <functional>

#include <CLI/CLI.hpp>

#include "lectern/run/machine_flags.h"

namespace run {

// The flags every program has: the machine it uses and anomaly mode.
struct CommonFlags {
    MachineFlags machine;
    bool detect_anomaly = false;
};
void add_common_flags(CLI::App& app, CommonFlags& flags);

int program_main(const char* program, CLI::App& app, int argc, char** argv, CommonFlags& common,
                 const std::function<void()>& check_flags, const std::function<int()>& work);

}  // namespace run
