#include "lectern/run/shell/memory_budget.h"

#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

namespace run {

double MemoryEstimate::bytes(bool training) const { return 4 * (parameters * (training ? 4 : 1) + activations); }

double transformer_activations(double layers, double B, double T, double D, double F, double H, double K) {
    // Per layer: about a dozen [B, T, D] tensors (norms, projections, residuals,
    // their dropout masks), the feed-forward's hidden [B, T, F] before and after
    // its activation, and the attention weights P [B, H, T, K] with their mask.
    return layers * (B * T * (12 * D + 2 * F) + 2 * B * H * T * K);
}

double available_memory_bytes() {
    double available = 0;
    std::ifstream meminfo("/proc/meminfo");
    for (std::string line; std::getline(meminfo, line);) {
        std::istringstream in(line);
        std::string key;
        double kib = 0;
        if (in >> key >> kib && key == "MemAvailable:") available = kib * 1024;
    }
    std::ifstream limit("/sys/fs/cgroup/memory.max");
    double cgroup = 0;
    if (limit >> cgroup && cgroup > 0 && (available == 0 || cgroup < available)) available = cgroup;
    return available;
}

void require_memory(const std::string& flag, const MemoryEstimate& e, bool training, const std::string& advice) {
    const double available = available_memory_bytes(), needed = e.bytes(training);
    if (available <= 0 || needed <= available) return;
    throw CLI::ValidationError(
        flag, fmt::format("this run needs about {:.3g} GB ({:.3g} GB of weights{}, {:.3g} GB of activations), and this "
                          "machine has {:.3g} GB available: {}",
                          needed / 1e9, 4 * e.parameters * (training ? 4 : 1) / 1e9,
                          training ? " with their gradients and Adam's moments" : "", 4 * e.activations / 1e9,
                          available / 1e9, advice));
}

}  // namespace run
