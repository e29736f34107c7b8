#pragma once
// The flags that say what of the machine a program uses, shared by the
// training programs:
//   --threads N        the one thread count (Lectern's kernels and OpenBLAS);
//                      by default every core the process may use (its CPU
//                      affinity), or OMP_NUM_THREADS when set. More threads
//                      than cores only wait for each other: the count is
//                      capped at the cores, and the program says so.
//   --blas-core NAME   OpenBLAS's kernels (OPENBLAS_CORETYPE), or auto for
//                      the best this CPU runs; the variable is read when the
//                      library loads, so the program restarts itself with it set.
#include <string>

#include <CLI/CLI.hpp>

namespace run {

struct MachineFlags {
    int threads;
    std::string blas_core;
    MachineFlags();
};

void add_machine_flags(CLI::App& app, MachineFlags& flags);

// After the flags are parsed, before any work: restarts the program under
// OPENBLAS_CORETYPE if --blas-core asks for kernels it is not running (returns
// only if no restart is needed), then sets the thread count.
void apply_machine_flags(MachineFlags& flags, char** argv);

// "2 threads (2 cores), OpenBLAS Haswell" for a program's header line, and the
// BLAS warning on a line of its own when OpenBLAS runs kernels below the CPU's.
std::string machine_summary(const MachineFlags& flags);

}  // namespace run
