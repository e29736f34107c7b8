#pragma once
// One thread setting for the whole framework (docs/design.md, "Speed on two cores"): BLAS's
// pool and Lectern's kernels never both spin on the same cores. Lectern's own
// elementwise kernels run on the calling thread; the matrix products use
// OpenBLAS's pool of set_num_threads() threads.
namespace autograd {

void set_num_threads(int n);  // n >= 1 (ValueError otherwise)
int num_threads();

}  // namespace autograd
