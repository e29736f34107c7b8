#include "examples/experiments/registry.h"

namespace examples::experiments {

std::vector<Experiment> all_experiments() {
    return {
        positions_experiment(),
        label_smoothing_experiment(),
        experts_experiment(),
        vit_pooling_experiment(),
    };
}

}  // namespace examples::experiments
