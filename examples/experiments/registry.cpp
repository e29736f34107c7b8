#include "examples/experiments/registry.h"

namespace examples::experiments {

std::vector<Experiment> all_experiments() {
    return {
        vit_pooling_experiment(),
    };
}

}  // namespace examples::experiments
