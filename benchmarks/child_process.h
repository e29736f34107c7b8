#pragma once
// Runs a program and collects what it writes on stdout. The driver runs each
// workload in a process of its own, so that the peak RSS the child reports
// (getrusage) belongs to that workload alone.
#include <string>
#include <vector>

namespace benchmarks {

struct ChildOutput {
    int status = -1;     // the exit status; -1 if it could not run or was killed
    std::string stdout_text;
};

// argv[0] is the program's path (no PATH search, no shell). stderr is passed
// through, or discarded when `quiet`.
ChildOutput run_child(const std::vector<std::string>& argv, bool quiet = false);

// The path of the running program (/proc/self/exe).
std::string self_path();

}  // namespace benchmarks
