#include "examples/experiments/registry.h"

namespace examples::experiments {

std::vector<Experiment> all_experiments() {
    return {};
}

}  // namespace examples::experiments
