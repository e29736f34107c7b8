#pragma once
// Every experiment, in the order of docs/experiments.md. Each lives in its own
// file, examples/experiments/<name>.cpp.
#include <vector>

#include "examples/experiments/experiment.h"

namespace run::experiments {

std::vector<Experiment> all_experiments();

Experiment scale_experiment();
Experiment norm_experiment();
Experiment positions_experiment();
Experiment attention_cost_experiment();
Experiment kv_cache_experiment();
Experiment label_smoothing_experiment();
Experiment experts_experiment();
Experiment vit_pooling_experiment();
Experiment vit_fine_tune_experiment();
Experiment table_15_1_experiment();
Experiment length_extrapolation_experiment();
Experiment heads_experiment();
Experiment entailment_experiment();
Experiment patterns_experiment();
Experiment batch_norm_experiment();
Experiment vit_cnn_experiment();
Experiment hard_attention_experiment();
Experiment relatedness_experiment();
Experiment rnn_attention_experiment();
Experiment conformer_experiment();

}  // namespace run::experiments
