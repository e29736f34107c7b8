#include "examples/experiments/registry.h"

namespace run::experiments {

std::vector<Experiment> all_experiments() {
    return {
        scale_experiment(),
        norm_experiment(),
        positions_experiment(),
        attention_cost_experiment(),
        kv_cache_experiment(),
        label_smoothing_experiment(),
        experts_experiment(),
        vit_pooling_experiment(),
        vit_fine_tune_experiment(),
        table_15_1_experiment(),
        length_extrapolation_experiment(),
        heads_experiment(),
        entailment_experiment(),
        patterns_experiment(),
        batch_norm_experiment(),
        vit_cnn_experiment(),
        hard_attention_experiment(),
        relatedness_experiment(),
        rnn_attention_experiment(),
        conformer_experiment(),
    };
}

}  // namespace run::experiments
