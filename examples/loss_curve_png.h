#pragma once
// A run's loss curve as a PNG (stb_image_write): steps across, loss down a log
// scale, training loss as a blue line, evaluation loss as red squares, a grey
// line at each power of ten. There are no printed numbers (no font); the
// program says the ranges when it writes the file.
#include <string>
#include <utility>
#include <vector>

namespace examples {

struct LossCurve {
    std::vector<std::pair<double, double>> train, eval;  // (step, loss), loss > 0
};

// Returns a line describing the axes ("steps 1..1500, loss 0.0021..2.4, log scale");
// throws std::runtime_error if the file cannot be written.
std::string write_loss_curve_png(const std::string& path, const LossCurve& curve, int width = 640, int height = 400);

}  // namespace examples
