#pragma once
// A run's loss curve as a student reads it: the training loss at every step
// and the held-out loss at each evaluation against the step, on a log axis
// (a loss of 1 and one of 1e-4 are a picture apart; log_axis.h labels it), and
// under it the learning rate the schedule set at each step.
#include <string>

#include "lectern/run/training/run_state.h"
#include "lectern/plot/figure.h"

namespace run {

struct LossCurves {
    std::string title;      // the program and its run
    Curve loss, lr, eval;   // (step, value)
    std::string eval_name;  // the legend's name for `eval` ("held-out loss per epoch")
};

plot::Figure loss_curve_figure(const LossCurves& curves);

// Draws it into DIR/loss_curve.{png,svg} and says where.
void write_loss_curve(const std::string& dir, const LossCurves& curves);

}  // namespace run
