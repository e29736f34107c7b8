#include "lectern/run/figures/loss_curve_figure.h"

#include "lectern/run/shell/console.h"
#include "lectern/run/figures/figure_files.h"

namespace run {

namespace {

plot::Curve curve(const std::string& name, const Curve& points, bool markers) {
    plot::Curve c{name, {}, {}, markers};
    for (const auto& [x, y] : points) c.x.push_back(x), c.y.push_back(y);
    return c;
}

}  // namespace

plot::Figure loss_curve_figure(const LossCurves& curves) {
    plot::LinePlot loss{"Loss", "training step", "loss (nats, log scale)", {}, false, true};
    loss.curves.push_back(curve("training loss per step", curves.loss, false));
    if (!curves.eval.empty()) loss.curves.push_back(curve(curves.eval_name, curves.eval, true));
    plot::LinePlot lr{"Learning rate set by the schedule", "training step", "learning rate", {}, false, false};
    lr.curves.push_back(curve("learning rate", curves.lr, false));
    return plot::Figure{curves.title, 1, 800, 700, {loss, lr}};
}

void write_loss_curve(const std::string& dir, const LossCurves& curves) {
    const auto paths = write_figure(dir + "/loss_curve", loss_curve_figure(curves));
    say("loss curve drawn in {} and {}\n", paths[0], paths[1]);
}

}  // namespace run
