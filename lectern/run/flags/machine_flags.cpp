#include "lectern/run/flags/machine_flags.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/autograd/blas_core.h"
#include "lectern/distributed/communicator.h"
#include "lectern/run/shell/console.h"

namespace run {

namespace {

// The processes mpirun started on this machine (1 without mpirun): they share its cores.
int local_processes() {
    const char* env = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const int n = env ? std::atoi(env) : 1;
    return n >= 1 ? n : 1;
}

}  // namespace

MachineFlags::MachineFlags() : threads(std::max(1, autograd::default_num_threads() / local_processes())) {}

void add_machine_flags(CLI::App& app, MachineFlags& flags) {
    app.add_option("--threads", flags.threads,
                   fmt::format("threads for the kernels and BLAS (default: the {} cores this process may use, or "
                               "OMP_NUM_THREADS)",
                               autograd::available_cores()))
        ->check(CLI::Range(1, 4096));
    app.add_option("--blas-core", flags.blas_core,
                   "OpenBLAS's kernels (OPENBLAS_CORETYPE), e.g. Haswell or SkylakeX, or auto: the best this CPU runs")
        ->check(CLI::IsMember({"auto", "Prescott", "Sandybridge", "Haswell", "Zen", "SkylakeX", "Cooperlake"}));
}

void apply_machine_flags(MachineFlags& flags, char** argv) {
    if (!flags.blas_core.empty() && !autograd::blas_is_openblas())
        say("--blas-core {}: this build runs Lectern's own GEMM (meson -Dblas=disabled), no OpenBLAS kernels to "
            "choose\n",
            flags.blas_core);
    else if (!flags.blas_core.empty()) {
        const std::string want = flags.blas_core == "auto" ? autograd::best_blas_core() : flags.blas_core;
        if (!want.empty() && autograd::blas_core_name() != want) {
            const char* already = std::getenv("OPENBLAS_CORETYPE");
            if (already && want == already)
                throw std::runtime_error(
                    fmt::format("--blas-core {}: OpenBLAS runs {} although OPENBLAS_CORETYPE={} "
                                "is set: this build of OpenBLAS lacks those kernels",
                                want, autograd::blas_core_name(), want));
            ::setenv("OPENBLAS_CORETYPE", want.c_str(), 1);
            std::fflush(stdout);
            ::execv("/proc/self/exe", argv);  // returns only on failure
            throw std::runtime_error(
                fmt::format("--blas-core: cannot restart with OPENBLAS_CORETYPE={}: {}", want, std::strerror(errno)));
        }
    }
    const int cores = std::max(1, autograd::available_cores() / local_processes());
    if (flags.threads > cores) {
        say("--threads {}: this process may use {} cores; running {} threads (more would only wait for each other)\n",
            flags.threads, cores, cores);
        flags.threads = cores;
    }
    autograd::set_num_threads(flags.threads);
}

std::string machine_summary(const MachineFlags& flags) {
    const int cores = autograd::available_cores(), ranks = distributed::Communicator::world().size();
    const std::string gemm =
        autograd::blas_is_openblas() ? "OpenBLAS " + autograd::blas_core_name() : "Lectern's portable GEMM";
    std::string line = fmt::format("{}{} thread{} ({} core{}), {}",
                                   ranks > 1 ? fmt::format("{} processes (mpirun), each ", ranks) : "", flags.threads,
                                   flags.threads == 1 ? "" : "s", cores, cores == 1 ? "" : "s", gemm);
    if (std::string warning = autograd::blas_core_warning(); !warning.empty()) line += "\nwarning: " + warning;
    return line;
}

}  // namespace run
