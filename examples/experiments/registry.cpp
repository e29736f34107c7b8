#include "examples/experiments/registry.h"

namespace examples::experiments {

std::vector<Experiment> all_experiments() {
    return {
        scale_experiment(),
        norm_experiment(),
        attention_cost_experiment(),
        kv_cache_experiment(),
        vit_pooling_experiment(),
    };
}

}  // namespace examples::experiments
