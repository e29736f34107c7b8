// available_cores() in the WebAssembly build: 1. Its module is built without pthreads,
// since threads in a browser need memory shared between workers, which only a
// cross-origin isolated page may have, and a file:// page cannot be one (docs/web.md).
// So set_num_threads asks for 1 whatever it is given, and the pool starts no thread.
#include "lectern/autograd/threads.h"

namespace autograd {

int available_cores() { return 1; }

}  // namespace autograd
