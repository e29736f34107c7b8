#pragma once
// A workload of bench_models: a name on the command line, what it runs, and
// the function that runs it in this process and returns its records.
#include <functional>
#include <string>
#include <vector>

#include "benchmarks/record.h"

namespace benchmarks {

struct RunSettings {
    int warmup = 5, steps = 30;
    bool quick = false;  // fewer decoding lengths and runs (the test suite's short run)
    std::string data_dir = "/usr/share/datasets/fashion-mnist";
};

struct Workload {
    std::string name, description;
    std::function<std::vector<Record>(const RunSettings&)> run;
};

// Every workload, in the order the driver runs them.
const std::vector<Workload>& workloads();

}  // namespace benchmarks
