#pragma once
// One pool of threads for the whole program (docs/design.md, "Speed on two cores"):
// OpenMP's. Lectern's kernels split their loops over it (autograd/parallel.h), and
// OpenBLAS, built on OpenMP, runs its matrix products on the same threads, so the
// two never spin against each other on the same cores.
namespace autograd {

// The kernels' and the BLAS's thread count: n >= 1 (ValueError otherwise), and
// at most available_cores(), since more threads than cores only wait for each
// other (a step on 8 threads of 2 cores took three times as long as on 2).
void set_num_threads(int n);
int num_threads();

// The cores this process may run on: its CPU affinity (taskset, a container's
// cpuset), not the machine's total.
int available_cores();
// The thread count a program uses unless told: OMP_NUM_THREADS when it is set
// to a whole number >= 1, else available_cores().
int default_num_threads();

}  // namespace autograd
