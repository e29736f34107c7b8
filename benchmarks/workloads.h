#pragma once
// The workloads bench_models runs: the copy task, the ViT and greedy decoding.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "benchmarks/records.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"

namespace benchmarks {

// A workload of bench_models: a name on the command line, what it runs, and
// the function that runs it in this process and returns its records.
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

// Training steps of the copy task (examples/copy_task.cpp), as bench_models runs them.
struct CopyTaskSetup {
    std::string workload, description;
    models::TransformerConfig model;
    std::int64_t batch = 80, seq_len = 10;
    double lr_factor = 1.0;     // of the warmup schedule (001's rate())
    std::int64_t warmup = 200;  // steps of the schedule
};

// The small configuration (docs/performance.md): copy_task's default model with dropout
// 0.1 and batch 80. N=2, d_model 64, d_ff 256, h 4, length 10.
CopyTaskSetup copy_task_small();
// copy_task --preset annotated2022: d_model 512, d_ff 2048, h 8, dropout 0.1, batch 80.
CopyTaskSetup copy_task_annotated();

std::vector<Record> bench_copy_task(const CopyTaskSetup& setup, const RunSettings& run);

// Training steps of the ViT on Fashion-MNIST (examples/vit_fashion_mnist.cpp),
// as bench_models runs them.
struct ViTSetup {
    std::string workload, description;
    models::ViTConfig model;
    std::int64_t batch = 128;
};

// The benchmarks' ViT: patch 7 (16 patches), D 64, depth 4, 4 heads, MLP 128, batch 128.
ViTSetup vit_patch7();
// vit_fashion_mnist's default preset: the same with patch 4 (49 patches).
ViTSetup vit_default();

// Batches of the real training set, normalised and shuffled as the example does.
std::vector<Record> bench_vit(const ViTSetup& setup, const RunSettings& run);

// Steps in one epoch of the 60,000 training images.
std::int64_t vit_steps_per_epoch(std::int64_t batch);

// Greedy decoding per token, with the key/value cache (models::greedy_decode)
// or without it (greedy_decode_recompute, which re-decodes the whole prefix at
// every step), on the copy task's small model (untrained: the time does not
// depend on the weights, and without an end symbol every run decodes all the
// tokens). One sequence at a time, as a user waiting for an answer; its source
// is a start symbol and `tokens` random symbols, and `tokens` are decoded. The
// two ways are two workloads, so that each one's peak RSS is its own.
enum class Decoding { cached, recompute };

std::vector<std::int64_t> decode_lengths(bool quick);  // 16, 64, 256 (quick: 16)

// One record per length: milliseconds per decoded token, the encoder's one
// pass included, the median of whole decodings (80 runs at 16 tokens, 20 at
// 64, 5 at 256).
std::vector<Record> bench_decode(Decoding way, const RunSettings& run);

}  // namespace benchmarks
