#include "lectern/run/training/best_parameters.h"

#include <stdexcept>

#include <fmt/format.h>

namespace run {

using autograd::Dtype;
using autograd::Tensor;

void record_best(nn::RunRecord& record, const std::string& name, const BestStep& best) {
    record.tensors["best." + name + ".step"] =
        autograd::tensor({static_cast<double>(best.step), static_cast<double>(best.steps)}, {2}, Dtype::int64);
    if (best.step > 0)
        record.tensors["best." + name + ".score"] =
            autograd::tensor(best.score, {static_cast<std::int64_t>(best.score.size())}, Dtype::float64);
}

BestStep recorded_best(const nn::RunRecord& record, const std::string& name, const std::string& path) {
    const auto step = record.tensors.find("best." + name + ".step");
    if (step == record.tensors.end() || step->second.dtype() != Dtype::int64 ||
        step->second.shape() != autograd::Shape{2})
        throw std::runtime_error(fmt::format("{} holds no chosen step of the {} ('best.{}.step')", path, name, name));
    BestStep best{step->second.data<std::int64_t>()[0], step->second.data<std::int64_t>()[1], {}};
    if (best.step == 0) return best;
    const auto score = record.tensors.find("best." + name + ".score");
    if (score == record.tensors.end() || score->second.dtype() != Dtype::float64 || score->second.dim() != 1)
        throw std::runtime_error(fmt::format("{} holds no score of the {}'s step {}", path, name, best.step));
    best.score = score->second.to_vector();
    return best;
}

BestParameters::BestParameters(TrainingLoop& loop, nn::Module& model, std::string name)
    : name_(std::move(name)), params_(model.named_parameters()) {
    best_.steps = loop.steps();
    for (const auto& [n, p] : params_) copy_.push_back(p.detach().clone());
    loop.keep([this](nn::RunRecord& r) { save(r); },
              [this](const nn::RunRecord& r, const std::string& path) { restore(r, path); });
}

void BestParameters::offer(std::int64_t step, const std::vector<double>& score) {
    autograd::NoGradGuard no_grad;
    if (best_.step == 0 || score > best_.score) {
        best_.step = step, best_.score = score;
        for (std::size_t i = 0; i < params_.size(); ++i) copy_[i].copy_(params_[i].second.detach());
    }
    if (step == best_.steps)
        for (std::size_t i = 0; i < params_.size(); ++i) params_[i].second.detach().copy_(copy_[i]);
}

void BestParameters::save(nn::RunRecord& r) const {
    record_best(r, name_, best_);
    for (std::size_t i = 0; i < params_.size(); ++i)
        r.tensors["best." + name_ + ".parameters." + params_[i].first] = copy_[i];
}

void BestParameters::restore(const nn::RunRecord& r, const std::string& path) {
    best_ = recorded_best(r, name_, path);
    autograd::NoGradGuard no_grad;
    for (std::size_t i = 0; i < params_.size(); ++i) {
        const std::string key = "best." + name_ + ".parameters." + params_[i].first;
        const auto saved = r.tensors.find(key);
        if (saved == r.tensors.end() || saved->second.shape() != copy_[i].shape() ||
            saved->second.dtype() != copy_[i].dtype())
            throw std::runtime_error(fmt::format("{} holds no '{}' of the model's shape {}", path, key,
                                                 autograd::shape_str(copy_[i].shape())));
        copy_[i].copy_(saved->second);
    }
}

}  // namespace run
