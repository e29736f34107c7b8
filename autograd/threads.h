#pragma once
// One pool of threads for the whole program (docs/design.md, "Speed on two cores"):
// OpenMP's. Lectern's kernels split their loops over it (autograd/parallel.h), and
// OpenBLAS, built on OpenMP, runs its matrix products on the same threads, so the
// two never spin against each other on the same cores.
namespace autograd {

void set_num_threads(int n);  // n >= 1 (ValueError otherwise): the kernels' and the BLAS's
int num_threads();

// The cores this process may run on: its CPU affinity (taskset, a container's
// cpuset), not the machine's total.
int available_cores();
// The thread count a program uses unless told: OMP_NUM_THREADS when it is set
// to a whole number >= 1, else available_cores().
int default_num_threads();

}  // namespace autograd
