#pragma once
// One pool of threads for the whole program (docs/design.md, "Speed on two cores"):
// OpenMP's. Lectern's kernels split their loops over it (autograd/parallel.h), and
// OpenBLAS, built on OpenMP, runs its matrix products on the same threads, so the
// two never spin against each other on the same cores.
namespace autograd {

void set_num_threads(int n);  // n >= 1 (ValueError otherwise): the kernels' and the BLAS's
int num_threads();

}  // namespace autograd
