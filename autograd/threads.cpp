#include "autograd/threads.h"

#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include "autograd/errors.h"

namespace autograd {

void set_num_threads(int n) {
    if (n < 1) throw ValueError(fmt::format("set_num_threads: need at least 1 thread, got {}", n));
    omp_set_num_threads(n);
    openblas_set_num_threads(n);
}

int num_threads() { return omp_get_max_threads(); }

}  // namespace autograd
