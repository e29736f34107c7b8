#pragma once
// What a resumable run keeps in its checkpoint beside the weights and the
// optimizer: the step it reached, every generator's state, and its loss curve,
// as tensors of the checkpoint's run record (nn::RunRecord). A run resumed from
// it draws the same batches and dropout masks as one that never stopped, so it
// ends with the same parameters, bit for bit.
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "lectern/autograd/autograd.h"
#include "lectern/nn/checkpoint.h"

namespace run {

// --save-every: "N" saves every N steps, "Nm" every N minutes (the first save
// due N minutes after the run starts), "" never.
class SaveSchedule {
public:
    explicit SaveSchedule(const std::string& every);
    bool due(std::int64_t step) const;
    void saved();  // restarts the minutes' clock

private:
    std::int64_t steps_ = 0;
    double minutes_ = 0;
    std::chrono::steady_clock::time_point last_;
};
// The flag's check: "N" or "Nm" with N >= 1.
CLI::Validator save_every_value();

// A generator's state as int64 [6] and back (the state's words, bit for bit).
autograd::Tensor generator_tensor(const autograd::Generator& gen);
void restore_generator(autograd::Generator& gen, const nn::RunRecord& record, const std::string& name);

// (step, value) points as float64 [n, 2] and back.
using Curve = std::vector<std::pair<double, double>>;
autograd::Tensor curve_tensor(const Curve& curve);
Curve curve_of(const nn::RunRecord& record, const std::string& name);

// The step a run record was saved at ("step", int64 [1]); std::runtime_error
// naming `path` if the record holds no training state (a checkpoint written
// before version 4): such a file can be --load-ed but not resumed.
std::int64_t saved_step(const nn::RunRecord& record, const std::string& path);
autograd::Tensor step_tensor(std::int64_t step);

}  // namespace run
