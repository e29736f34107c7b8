#pragma once
// Before a program builds its model, it estimates from its flags the bytes the
// run will hold, and refuses, in one line with the estimate, a run that cannot
// fit in the memory this machine has available: better than allocating for
// half a minute and dying in the OOM killer.
#include <string>

namespace run {

// float32 elements a run holds, by what holds them.
struct MemoryEstimate {
    double parameters = 0;   // the model's weights
    double activations = 0;  // what one step keeps for its backward (or one evaluation batch)
    // Bytes: training adds a gradient and Adam's two moments to every weight.
    double bytes(bool training) const;
};

// Saved tensors of `layers` transformer layers over B sequences of T tokens,
// width D, feed-forward width F, H heads each attending to K keys (K = T for
// full attention, the block length for block-local).
double transformer_activations(double layers, double B, double T, double D, double F, double H, double K);

// MemAvailable of /proc/meminfo, or the cgroup's limit if lower; 0 if unknown.
double available_memory_bytes();

// CLI::ValidationError(flag, "needs about ... GB ...: <advice>") when the estimate
// exceeds what is available (unknown: no check); the advice names what to shrink.
void require_memory(const std::string& flag, const MemoryEstimate& estimate, bool training,
                    const std::string& advice = "choose a smaller model, --batch or length");

}  // namespace run
