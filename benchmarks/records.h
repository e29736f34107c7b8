#pragma once
// Figures as records, one JSON line each, and the child processes that print them.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace benchmarks {

// One measurement as one line of flat JSON, the format bench_models' workloads
// and pytorch_reference.py both print and the driver reads back:
//   {"framework": "lectern", "workload": "copy_small", "step_ms": 21.4, ...}
// Values are strings or numbers; nothing is nested.
struct Record {
    std::map<std::string, std::string> strings;
    std::map<std::string, double> numbers;

    double number(const std::string& key) const;       // NaN when absent
    std::string string(const std::string& key) const;  // "" when absent
};

std::string to_json_line(const Record& r);
// nullopt unless `line` is one flat JSON object (other output is skipped by the
// reader); null and true/false values are dropped.
std::optional<Record> parse_json_line(const std::string& line);

// Runs a program and collects what it writes on stdout. The driver runs each
// workload in a process of its own, so that the peak RSS the child reports
// (getrusage) belongs to that workload alone.
struct ChildOutput {
    int status = -1;  // the exit status; -1 if it could not run or was killed
    std::string stdout_text;
};

// argv[0] is the program's path (no PATH search, no shell). stderr is passed
// through, or discarded when `quiet`.
ChildOutput run_child(const std::vector<std::string>& argv, bool quiet = false);

// The same in two halves, for children that run at the same time (bench_models --load
// runs two trainings side by side): start_child returns at once; finish_child reads the
// child's stdout to its end and waits for it. A child's figures are a few lines, well
// within a pipe's buffer, so a child never waits for the parent to read another's first.
struct StartedChild {
    int pid = -1;  // -1 if it could not start
    int stdout_fd = -1;
};
StartedChild start_child(const std::vector<std::string>& argv, bool quiet = false);
ChildOutput finish_child(const StartedChild& child);

// The path of the running program (/proc/self/exe).
std::string self_path();

}  // namespace benchmarks
