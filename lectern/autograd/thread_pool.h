#pragma once
// Lectern's own pool of threads, under the loops of autograd/parallel.h. Internal to autograd.
//
// A laptop is rarely idle: another program often holds a core. A loop split into fixed
// shares, one per thread (OpenMP's static schedule), then waits at its end for a thread the
// system has not run yet, while the threads that finished spin on the cores the late one
// needs. Here a loop's parts are claimed one at a time by whichever thread comes first:
// the calling thread takes its first part at once and goes on claiming, so a part no worker
// has woken for is done by the caller and a loop never waits for a thread that has not
// started. A thread with nothing to do spins a few tens of microseconds (the gap between
// two kernels of a training step, when a wake-up would cost more than the wait) and then
// sleeps in the kernel (a futex, through std::atomic::wait) until there is work.
//
// Which thread runs a part changes from run to run; what a part computes does not, so the
// results are the same (autograd/parallel.h says why).
#include <cstdint>

namespace autograd::detail {

// body(context, part) for every part in [0, parts), each exactly once, on the calling
// thread and the pool's workers; returns when all are done. An exception thrown by a part
// is rethrown here once every part has finished (the first one thrown, if several are).
// Called from inside a part, or while another thread's loop holds the pool, the parts run
// in order on the calling thread.
using PartFunction = void (*)(void* context, std::int64_t part);
void run_parts(std::int64_t parts, PartFunction body, void* context);

// True on a thread while it runs a part of run_parts.
bool in_parallel();

// The pool's size: the calling thread and threads - 1 workers (autograd/threads.h sets it).
void set_pool_threads(int threads);
int pool_threads();

}  // namespace autograd::detail
