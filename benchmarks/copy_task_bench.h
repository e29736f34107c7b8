#pragma once
// Training steps of the copy task (examples/copy_task.cpp), as bench_models runs them.
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/workload.h"
#include "models/transformer.h"

namespace benchmarks {

struct CopyTaskSetup {
    std::string workload, description;
    models::TransformerConfig model;
    std::int64_t batch = 80, seq_len = 10;
    double lr_factor = 1.0;       // of the warmup schedule (rate() of 001's full post)
    std::int64_t warmup = 200;    // steps of the schedule
};

// The small configuration of issue 13: copy_task's default model with dropout
// 0.1 and batch 80. N=2, d_model 64, d_ff 256, h 4, length 10.
CopyTaskSetup copy_task_small();
// copy_task --preset annotated2022: d_model 512, d_ff 2048, h 8, dropout 0.1, batch 80.
CopyTaskSetup copy_task_annotated();

std::vector<Record> bench_copy_task(const CopyTaskSetup& setup, const RunSettings& run);

}  // namespace benchmarks
