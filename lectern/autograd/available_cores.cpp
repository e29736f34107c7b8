// available_cores() where the C library has CPU affinity (Linux's glibc); meson
// builds available_cores_web.cpp in its place for WebAssembly (lectern/autograd/meson.build).
#include <sched.h>

#include <algorithm>

#include "lectern/autograd/threads.h"

namespace autograd {

int available_cores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return std::max(1, CPU_COUNT(&set));
}

}  // namespace autograd
