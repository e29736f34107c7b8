#pragma once
// The machine line of a benchmark report: CPU model, cores, BLAS, compiler,
// instruction set the build targets.
#include <string>

namespace benchmarks {

std::string machine_line();

}  // namespace benchmarks
