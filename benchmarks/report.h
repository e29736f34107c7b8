#pragma once
// bench_models' tables: each workload's phases and throughput, Lectern beside
// PyTorch with the ratios, decoding per token, and the targets of
// docs/performance.md against this run's figures.
#include <map>
#include <string>
#include <vector>

#include "benchmarks/records.h"
#include "benchmarks/machine.h"

namespace benchmarks {

struct Results {
    SgemmPeak peak;
    std::vector<std::string> order;                               // workloads, in the order run
    std::map<std::string, std::vector<Record>> lectern, pytorch;  // by workload; pytorch empty without PyTorch
    int warmup = 0, steps = 0;
};

void print_report(const Results& r);

}  // namespace benchmarks
