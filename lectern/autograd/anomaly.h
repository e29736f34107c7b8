#pragma once
// Anomaly mode, like PyTorch's detect_anomaly: while an AnomalyGuard lives,
// every recorded op's output and every gradient a backward formula returns is
// scanned, and the first op that turns finite values into a NaN or an infinity
// throws AnomalyError naming it and its shapes:
//   anomaly: 'log' produced NaN in its output [64, 11] from inputs [64, 11] (all finite)
// Values that only pass a NaN on are not blamed; a leaf (data or a parameter)
// that already holds one is named as such. It costs a pass over every tensor,
// so it is for finding a bug, not for every run.
#include <vector>

#include "lectern/autograd/tensor.h"

namespace autograd {

// Turns anomaly mode on for this thread, and restores the previous mode.
class AnomalyGuard {
public:
    AnomalyGuard();
    ~AnomalyGuard();
    AnomalyGuard(const AnomalyGuard&) = delete;
    AnomalyGuard& operator=(const AnomalyGuard&) = delete;

private:
    bool previous_;
};

bool anomaly_enabled();

// What an op's output may hold in anomaly mode: finite values, or (masked_fill
// with an infinite value, which makes infinities on purpose) anything but NaN.
enum class AnomalyCheck { finite, no_nan };

// Called by record() for each op's forward and by backward() for each node.
void check_forward_anomaly(const char* op, const std::vector<Tensor>& inputs, const Tensor& out, AnomalyCheck check);
void check_backward_anomaly(const char* op, const std::vector<Tensor>& inputs, const Tensor& dy,
                            const std::vector<Tensor>& dx);

}  // namespace autograd
