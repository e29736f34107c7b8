#pragma once
// One pool of threads for the whole program (docs/design.md, "Speed on two cores"):
// Lectern's own (autograd/thread_pool.h). The kernels split their loops over it
// (autograd/parallel.h), and every BLAS call runs on the thread that makes it
// (autograd/kernels/gemm.h), so no other pool spins beside it.
namespace autograd {

// The kernels' thread count: n >= 1 (ValueError otherwise), and
// at most available_cores(), since more threads than cores only wait for each
// other (a step on 8 threads of 2 cores took three times as long as on 2).
void set_num_threads(int n);
int num_threads();

// The cores this process may run on: its CPU affinity (taskset, a container's
// cpuset), not the machine's total (available_cores.cpp). In the WebAssembly build,
// 1 (available_cores_web.cpp): its module has no threads (docs/web.md).
int available_cores();
// The thread count a program uses unless told: OMP_NUM_THREADS when it is set
// to a whole number >= 1, else available_cores().
int default_num_threads();

}  // namespace autograd
