#pragma once
// Training steps of the ViT on Fashion-MNIST (examples/vit_fashion_mnist.cpp),
// as bench_models runs them.
#include <cstdint>
#include <string>
#include <vector>

#include "benchmarks/workload.h"
#include "models/vit.h"

namespace benchmarks {

struct ViTSetup {
    std::string workload, description;
    models::ViTConfig model;
    std::int64_t batch = 128;
};

// Issue 13's ViT: patch 7 (16 patches), D 64, depth 4, 4 heads, MLP 128, batch 128.
ViTSetup vit_patch7();
// vit_fashion_mnist's default preset: the same with patch 4 (49 patches).
ViTSetup vit_default();

// Batches of the real training set, normalised and shuffled as the example does.
std::vector<Record> bench_vit(const ViTSetup& setup, const RunSettings& run);

// Steps in one epoch of the 60,000 training images.
std::int64_t vit_steps_per_epoch(std::int64_t batch);

}  // namespace benchmarks
