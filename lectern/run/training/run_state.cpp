#include "lectern/run/training/run_state.h"

#include <stdexcept>

#include <fmt/format.h>

namespace run {

using autograd::Tensor;

namespace {

// "N" or "Nm": (N, is minutes); N = 0 when the text is neither.
std::pair<std::int64_t, bool> parse_every(const std::string& text) {
    bool minutes = !text.empty() && text.back() == 'm';
    std::string digits = minutes ? text.substr(0, text.size() - 1) : text;
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
        return {0, false};
    return {std::stoll(digits), minutes};
}

const Tensor& tensor_in(const nn::RunRecord& record, const std::string& name) {
    auto it = record.tensors.find(name);
    if (it == record.tensors.end()) throw std::runtime_error(fmt::format("the checkpoint has no record '{}'", name));
    return it->second;
}

}  // namespace

SaveSchedule::SaveSchedule(const std::string& every) : last_(std::chrono::steady_clock::now()) {
    auto [n, minutes] = parse_every(every);
    if (minutes) minutes_ = static_cast<double>(n);
    else steps_ = n;
}

bool SaveSchedule::due(std::int64_t step) const {
    if (steps_ > 0) return step % steps_ == 0;
    if (minutes_ > 0)
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= 60 * minutes_;
    return false;
}

void SaveSchedule::saved() { last_ = std::chrono::steady_clock::now(); }

CLI::Validator save_every_value() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const bool minutes = text.ends_with('m');
            const std::string digits = minutes ? text.substr(0, text.size() - 1) : text;
            if (digits.size() > 9 && digits.find_first_not_of("0123456789") == std::string::npos)
                return fmt::format("'{}' is more than 999999999 {}", text, minutes ? "minutes" : "steps");
            if (parse_every(text).first < 1)
                return fmt::format("'{}' is neither N steps nor Nm minutes, N >= 1 (e.g. 500 or 10m)", text);
            return "";
        },
        "N steps or Nm minutes");
}

Tensor generator_tensor(const autograd::Generator& gen) {
    autograd::Generator::State s = gen.state();
    Tensor t = Tensor::empty({static_cast<std::int64_t>(s.size())}, autograd::Dtype::int64);
    for (std::size_t i = 0; i < s.size(); ++i) t.data<std::int64_t>()[i] = static_cast<std::int64_t>(s[i]);
    return t;
}

void restore_generator(autograd::Generator& gen, const nn::RunRecord& record, const std::string& name) {
    const Tensor& t = tensor_in(record, name);
    autograd::Generator::State s{};
    if (t.dtype() != autograd::Dtype::int64 || t.numel() != static_cast<std::int64_t>(s.size()))
        throw std::runtime_error(fmt::format("the checkpoint's '{}' is not a generator's state", name));
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint64_t>(t.data<std::int64_t>()[i]);
    gen.set_state(s);
}

Tensor curve_tensor(const Curve& curve) {
    Tensor t = Tensor::empty({static_cast<std::int64_t>(curve.size()), 2}, autograd::Dtype::float64);
    for (std::size_t i = 0; i < curve.size(); ++i) {
        t.data<double>()[2 * i] = curve[i].first;
        t.data<double>()[2 * i + 1] = curve[i].second;
    }
    return t;
}

Curve curve_of(const nn::RunRecord& record, const std::string& name) {
    const Tensor& t = tensor_in(record, name);
    if (t.dtype() != autograd::Dtype::float64 || t.dim() != 2 || t.size(1) != 2)
        throw std::runtime_error(fmt::format("the checkpoint's '{}' is not a curve of (step, value) points", name));
    Curve curve(static_cast<std::size_t>(t.size(0)));
    for (std::size_t i = 0; i < curve.size(); ++i) curve[i] = {t.data<double>()[2 * i], t.data<double>()[2 * i + 1]};
    return curve;
}

std::int64_t saved_step(const nn::RunRecord& record, const std::string& path) {
    auto it = record.tensors.find("step");
    if (it == record.tensors.end() || it->second.dtype() != autograd::Dtype::int64 || it->second.numel() != 1)
        throw std::runtime_error(
            fmt::format("{} holds no training state to resume (a checkpoint of a finished run "
                        "of an older version?)",
                        path));  // no flag named: gpt2 has no --load to evaluate it with
    const std::int64_t step = it->second.data<std::int64_t>()[0];
    if (step < 0) throw std::runtime_error(fmt::format("{} records step {}: a damaged checkpoint", path, step));
    return step;
}

Tensor step_tensor(std::int64_t step) {
    Tensor t = Tensor::empty({1}, autograd::Dtype::int64);
    t.data<std::int64_t>()[0] = step;
    return t;
}

}  // namespace run
