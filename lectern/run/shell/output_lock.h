#pragma once
// Two runs given one --save would write their checkpoints over each other's,
// each believing the file its own. The run that writes FILE holds an exclusive
// lock (flock) on FILE.lock, which holds its pid, from its flags to its exit:
// a second run is refused in one line naming the file and the first run's pid.
// The kernel releases a flock when its process ends however it ends (kill -9,
// a crash), so a lock never outlives its run; a run that ends normally also
// removes FILE.lock. A FILE.lock that holds anything but a pid is someone's own file: the run is
// refused and the file left as it is. Under mpirun rank 0 alone writes, and so alone locks.
#include <string>

namespace run {

// Flag time: takes the lock on `path` + ".lock" for this process, or throws
// CLI::ValidationError naming `flag`, the file and the other run's pid. An
// empty path (not asked for) and a path this process locked already pass.
void lock_output(const std::string& flag, const std::string& path);

}  // namespace run
