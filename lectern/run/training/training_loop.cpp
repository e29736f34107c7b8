#include "lectern/run/training/training_loop.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "lectern/nn/clip_grad.h"
#include "lectern/nn/non_finite.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/shell/job_agreement.h"
#include "lectern/run/figures/loss_curve_figure.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/progress_bar.h"
#include "lectern/run/training/step_boundary.h"

namespace run {

using autograd::Tensor;

TrainingLoop::TrainingLoop(nn::Module& model, nn::optim::Optimizer& opt, LoopPlan plan,
                           const CheckpointFlags& checkpoint, nn::RunRecord flags,
                           std::shared_ptr<const nn::CheckpointFile> resume_from)
    : model_(model),
      saved_(&model),
      opt_(opt),
      plan_(std::move(plan)),
      checkpoint_(checkpoint),
      flags_(std::move(flags)),
      resume_from_(std::move(resume_from)),
      comm_(distributed::Communicator::world()) {
    if (plan_.steps < 1 || plan_.epoch_steps < 1)
        throw std::logic_error(fmt::format("TrainingLoop: {} steps in epochs of {}", plan_.steps, plan_.epoch_steps));
    curve("loss");
    curve("lr");
}

TrainingLoop::TrainingLoop(nn::Module& model, nn::optim::Optimizer& opt, LoopPlan plan, Run& run)
    : TrainingLoop(model, opt, std::move(plan), run.checkpoint, run.record(),
                   run.checkpoint.resume.empty() ? nullptr : run.take_checkpoint()) {}

void TrainingLoop::keep(const std::string& name, autograd::Generator& gen) { generators_.emplace_back(name, &gen); }

void TrainingLoop::keep(std::function<void(nn::RunRecord&)> save,
                        std::function<void(const nn::RunRecord&, const std::string&)> restore) {
    kept_.emplace_back(std::move(save), std::move(restore));
}

void TrainingLoop::keep_text(const std::string& name, std::string text) { flags_.text[name] = std::move(text); }

Curve& TrainingLoop::curve(const std::string& name) {
    for (auto& [n, c] : curves_)
        if (n == name) return c;
    return curves_.emplace_back(name, Curve{}).second;
}

const Curve& TrainingLoop::curve(const std::string& name) const {
    for (const auto& [n, c] : curves_)
        if (n == name) return c;
    throw std::logic_error(fmt::format("TrainingLoop: no curve '{}'", name));
}

nn::RunRecord TrainingLoop::record() const {
    nn::RunRecord r = flags_;
    r.tensors["step"] = step_tensor(step_);
    r.tensors["generator.dropout"] = gathered_dropout_state(comm_);
    for (const auto& [name, gen] : generators_) r.tensors["generator." + name] = generator_tensor(*gen);
    std::string order;  // the curves' order, which the record's map of tensors does not keep
    for (const auto& [name, c] : curves_) {
        r.tensors["curve." + name] = curve_tensor(c);
        order += (order.empty() ? "" : "\n") + name;
    }
    r.text["curves"] = order;
    for (const auto& [save, restore] : kept_) save(r);
    return r;
}

void TrainingLoop::restore(const nn::RunRecord& r, const std::string& path) {
    step_ = saved_step(r, path);
    if (step_ < 0 || step_ > plan_.steps)
        throw std::runtime_error(
            fmt::format("{} was saved at step {}, outside this run's 0 to {}", path, step_, plan_.steps));
    restore_dropout_state(r, path, comm_);
    for (const auto& [name, gen] : generators_) restore_generator(*gen, r, "generator." + name);
    // The curves in the order they were first named (the record's map sorts
    // them by name), then any its list lacks (a record written without one).
    std::vector<std::string> names;
    if (auto order = r.text.find("curves"); order != r.text.end())
        for (std::size_t at = 0; at < order->second.size();) {
            const std::size_t end = std::min(order->second.find('\n', at), order->second.size());
            names.push_back(order->second.substr(at, end - at));
            at = end + 1;
        }
    for (const auto& [name, t] : r.tensors)
        if (name.starts_with("curve.") && std::find(names.begin(), names.end(), name.substr(6)) == names.end())
            names.push_back(name.substr(6));
    curves_.clear();
    for (const std::string& name : names) curve(name) = curve_of(r, "curve." + name);
    curve("loss");
    curve("lr");
    for (const auto& [save, restore] : kept_) restore(r, path);
}

namespace {

// The weights after `step`, checked before they are saved or handed back: an
// update can overflow them although the loss and gradients it came from were finite.
void check_finite_weights(const nn::Module& module, std::int64_t step) {
    try {
        nn::check_finite_parameters(module);
    } catch (const nn::NonFiniteError& e) {
        throw nn::NonFiniteError(fmt::format("after step {}: {}", step, e.what()));
    }
}

}  // namespace

void TrainingLoop::check_finite_evaluation(std::int64_t step) const {
    for (const auto& [name, c] : curves_)
        if (name != "loss" && name != "lr" && !c.empty() && c.back().first == static_cast<double>(step) &&
            !std::isfinite(c.back().second))
            throw nn::NonFiniteError(
                fmt::format("after step {}: the evaluation's {} is {}", step, name, c.back().second));
}

void TrainingLoop::run(const std::function<StepLoss(std::int64_t)>& step_loss) {
    require_same_job(comm_, job_description(flags_, model_, {{"--save", !checkpoint_.save.empty()}}));
    dp_ = std::make_unique<distributed::DataParallel>(model_);
    if (resumed()) {
        if (!resume_from_) resume_from_ = std::make_shared<const nn::CheckpointFile>(checkpoint_.resume);
        resume_from_->load(*saved_, &opt_);
        restore(resume_from_->run_record(), checkpoint_.resume);
        resume_from_.reset();  // the file's bytes, no longer needed
        say("resumed {} at step {} of {}\n", checkpoint_.resume, step_, plan_.steps);
    }
    StepBoundary boundary(checkpoint_, plan_.steps, comm_, plan_.save_at_end);
    auto save = [&](const std::string& path) {
        nn::RunRecord r = record();
        if (!comm_.is_root()) return;
        check_finite_weights(*saved_, step_);
        nn::save_checkpoint(path, *saved_, &opt_, &r);
    };
    // A run resumed at its last step has no step left to run; its --save still gets the
    // checkpoint a run that ended here would have written.
    if (resumed() && step_ == plan_.steps) boundary.after(step_, save);
    std::unique_ptr<ProgressBar> bar;
    double running = 0;  // the loss the bar shows: a running mean since the bar began
    bool fresh = true;
    const bool clip = plan_.clip > 0;
    for (std::int64_t step = step_ + 1; step <= plan_.steps; ++step) {
        const std::int64_t epoch = epoch_of(step), i = (step - 1) % plan_.epoch_steps + 1;
        const std::int64_t epoch_end = std::min(epoch * plan_.epoch_steps, plan_.steps);
        if (!bar || (plan_.epoch_lines && i == 1)) {
            if (plan_.epoch_lines) say("epoch {}/{}\n", epoch, epochs());
            bar = plan_.epoch_lines
                      ? std::make_unique<ProgressBar>(epoch_end - (epoch - 1) * plan_.epoch_steps, plan_.unit)
                      : std::make_unique<ProgressBar>(plan_.steps, plan_.unit);
            fresh = true;
        }
        opt_.set_lr(plan_.lr(step));
        opt_.zero_grad();
        const StepLoss s = step_loss(step);
        const bool mine = s.loss.defined();  // an epoch's short last batch may leave a rank no row
        const Tensor& shown = s.shown.defined() ? s.shown : s.loss;
        const double share = dp_->weight(mine ? s.counted : 0);
        const double value = comm_.sum(mine ? shown.item() * share : 0.0);  // the batch's mean
        nn::check_finite_loss(s.shown.defined() ? comm_.sum(mine ? s.loss.item() * share : 0.0) : value, step);
        if (mine) (comm_.size() > 1 ? s.loss * share : s.loss).backward();
        dp_->sync_gradients();
        nn::check_finite_gradients(model_, step);
        if (clip) nn::clip_grad_norm_(model_.parameters(), plan_.clip);
        opt_.step();
        step_ = step;
        curve("loss").emplace_back(static_cast<double>(step), value);
        curve("lr").emplace_back(static_cast<double>(step), opt_.lr());
        if (after_step) after_step(step);
        running = fresh ? value : 0.95 * running + 0.05 * value;
        fresh = false;
        const std::string note = bar_note ? bar_note() : "";
        bar->update(plan_.epoch_lines ? i : step, s.items,
                    fmt::format("loss {:.4f}  lr {:.1e}{}", running, opt_.lr(), note.empty() ? "" : "  " + note));
        if (step == epoch_end && evaluate && comm_.is_root()) {
            evaluate(epoch, step);
            check_finite_evaluation(step);
        }
        boundary.after(step, save);
    }
    check_finite_weights(model_, step_);
    boundary.finish(*dp_);
    boundary.stop_if_asked();  // a signal that came during the last save
}

void TrainingLoop::finish(const Figure& figure, const std::string& csv, const std::string& figures) const {
    if (!comm_.is_root()) return;
    if (!csv.empty()) {
        std::map<double, std::vector<std::string>> rows;  // step -> a cell per curve
        for (std::size_t k = 0; k < curves_.size(); ++k)
            for (const auto& [step, value] : curves_[k].second) {
                auto& row = rows[step];
                row.resize(curves_.size());
                row[k] = fmt::format("{}", value);
            }
        std::string text = "step";
        for (const auto& [name, c] : curves_) text += "," + name;
        text += "\n";
        for (auto& [step, row] : rows) {
            row.resize(curves_.size());
            text += fmt::format("{}", step);
            for (const std::string& cell : row) text += "," + cell;
            text += "\n";
        }
        write_output(csv, text);
        say("curves written to {}\n", csv);
    }
    if (!figures.empty()) {
        Curve eval;
        for (const auto& [name, c] : curves_)
            if (name == figure.eval) eval = c;
        write_loss_curve(figures, {figure.title, curve("loss"), curve("lr"), eval, figure.eval_name});
    }
}

}  // namespace run
