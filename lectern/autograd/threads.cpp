#include "lectern/autograd/threads.h"

#include <cstdlib>
#include <string>
#include <fmt/format.h>

#include "lectern/autograd/errors.h"
#include "lectern/autograd/thread_pool.h"

#include <algorithm>

namespace autograd {

void set_num_threads(int n) {
    if (n < 1) throw ValueError(fmt::format("set_num_threads: need at least 1 thread, got {}", n));
    n = std::min(n, available_cores());  // more threads than cores only wait for each other
    detail::set_pool_threads(n);
}

int num_threads() { return detail::pool_threads(); }

int default_num_threads() {
    if (const char* env = std::getenv("OMP_NUM_THREADS")) {
        char* end = nullptr;
        long n = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && n >= 1 && n <= 4096) return static_cast<int>(n);
    }
    return available_cores();
}

}  // namespace autograd
