#include "web/training_session.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lectern/models/greedy_decode.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/make_positional_encoding.h"
#include "lectern/nn/module.h"
#include "lectern/nn/non_finite.h"

namespace web {

using namespace autograd;

namespace {

// A seed the page's JavaScript holds exactly: an integer below 2^53.
constexpr std::uint64_t kLargestSeed = (std::uint64_t{1} << 53) - 1;

[[noreturn]] void refuse(const std::string& knob, const std::string& why) {
    throw ValueError(fmt::format("{}: {}", knob, why));
}

void check_choice(const std::string& knob, const std::string& value, const std::vector<std::string>& choices) {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return;
    refuse(knob, fmt::format("\"{}\" is not one of {}", value, fmt::join(choices, ", ")));
}

void check_range(const std::string& knob, std::int64_t value, std::int64_t low, std::int64_t high,
                 const std::string& why) {
    if (value < low || value > high) refuse(knob, fmt::format("{} is outside {}..{} ({})", value, low, high, why));
}

std::string json_text(const nlohmann::json& v, const std::string& knob) {
    if (!v.is_string()) refuse(knob, fmt::format("{} is not a string", v.dump()));
    return v.get<std::string>();
}

std::int64_t json_integer(const nlohmann::json& v, const std::string& knob) {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float()) {  // JavaScript's numbers: 8.0 is 8, 8.5 is no count
        const double d = v.get<double>();
        if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d > -9e15 && d < 9e15)
            return static_cast<std::int64_t>(d);
    }
    refuse(knob, fmt::format("{} is not a whole number", v.dump()));
}

}  // namespace

void check_config(const SessionConfig& c) {
    check_choice("task", c.task, {"copy", "reverse"});
    check_choice("positions", c.positions, {"sinusoidal", "learned", "none"});
    check_choice("scores", c.scores, {"scaled", "unscaled", "additive"});
    check_choice("norm", c.norm, {"pre", "post"});
    check_range("heads", c.heads, 1, kDModel, "heads split d_model = 64");
    if (kDModel % c.heads != 0)
        refuse("heads",
               fmt::format("{} does not divide d_model = {}: choose 1, 2, 4, 8, 16, 32 or 64", c.heads, kDModel));
    check_range("layers", c.layers, 1, 8, "each layer adds about half a step's time in a browser");
    check_range("warmup", c.warmup, 1, 100000, "steps of the schedule's rise");
    check_range("steps", c.steps, 1, 100000, "training steps of 64 sequences");
    if (c.seed > kLargestSeed)
        refuse("seed", fmt::format("{} is above 2^53 - 1, the largest whole number JavaScript holds", c.seed));
}

SessionConfig parse_config(const std::string& json) {
    const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw ValueError(fmt::format("the knobs are not a JSON object: {}", json));
    SessionConfig c;
    for (const auto& [knob, v] : j.items()) {
        if (knob == "task") c.task = json_text(v, knob);
        else if (knob == "positions") c.positions = json_text(v, knob);
        else if (knob == "scores") c.scores = json_text(v, knob);
        else if (knob == "norm") c.norm = json_text(v, knob);
        else if (knob == "heads") c.heads = json_integer(v, knob);
        else if (knob == "layers") c.layers = json_integer(v, knob);
        else if (knob == "warmup") c.warmup = json_integer(v, knob);
        else if (knob == "steps") c.steps = json_integer(v, knob);
        else if (knob == "seed") {
            const std::int64_t seed = json_integer(v, knob);
            if (seed < 0) refuse("seed", fmt::format("{} is negative", seed));
            c.seed = static_cast<std::uint64_t>(seed);
        } else refuse(knob, "no such knob (task, positions, scores, heads, layers, norm, warmup, seed, steps)");
    }
    check_config(c);
    return c;
}

namespace {

// copy_task's model_config for its default preset and these knobs.
models::TransformerConfig model_config(const SessionConfig& s) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = kVocab;
    c.n_layers = s.layers, c.d_model = kDModel, c.d_ff = kDFF, c.heads = s.heads;
    c.dropout = 0.0;
    c.norm = s.norm == "post" ? nn::Norm::post : nn::Norm::pre;
    c.layer_norm = nn::LayerNormFormula::standard;
    c.positions = nn::parse_positions(s.positions);
    c.scaled_attention = s.scores != "unscaled";
    c.compatibility = s.scores == "additive" ? nn::Compatibility::additive : nn::Compatibility::dot;
    c.seed = s.seed;
    return c;
}

const SessionConfig& checked(const SessionConfig& c) {
    check_config(c);
    return c;
}

}  // namespace

TrainingSession::TrainingSession(const SessionConfig& config)
    : config_(checked(config)),
      task_(data::sequence_task_named(config.task)),
      schedule_(kDModel, config.warmup, 1.0),
      criterion_(kVocab, data::kCopyPad, 0.0),
      batches_(config.seed) {
    manual_seed(config.seed);  // dropout's generator, as copy_task seeds it (its rate is 0 here)
    model_ = models::make_transformer(model_config(config));
    opt_ = std::make_unique<nn::optim::Adam>(model_->parameters(),
                                             nn::optim::AdamOptions{.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
}

data::CopyBatch TrainingSession::batch(std::int64_t size, Generator& gen) const {
    return data::sequence_task_batch(task_, kVocab, kSeqLen, size, gen);
}

Tensor TrainingSession::batch_loss(const data::CopyBatch& b) const {
    Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    Tensor out = model_->forward(b.src, b.tgt_in, src_mask, models::target_mask(b.tgt_in, data::kCopyPad));
    return criterion_(model_->generator->forward(out), b.tgt_out);
}

double TrainingSession::step() {
    if (done()) throw ValueError(fmt::format("the session has run its {} steps", config_.steps));
    const std::int64_t step = step_ + 1;
    opt_->set_lr(schedule_.lr(step));  // copy_task's lr factor 1 times the warm-up schedule
    opt_->zero_grad();
    Tensor loss = batch_loss(batch(kBatch, batches_));
    const double value = loss.item();
    nn::check_finite_loss(value, step);
    loss.backward();
    nn::check_finite_gradients(*model_, step);
    opt_->step();
    step_ = step;
    return value;
}

plot::AttentionPage TrainingSession::attention() const {
    NoGradGuard no_grad;
    nn::EvalGuard eval(*model_);
    Generator gen(config_.seed + 1000003);  // copy_task's held-out stream
    const data::CopyBatch b = batch(1, gen);
    const Tensor src_mask = nn::padding_mask(b.src, data::kCopyPad);
    const Tensor decoded = models::greedy_decode(*model_, b.src, src_mask, kSeqLen, 1).tokens;
    model_->forward(b.src, decoded, src_mask, models::target_mask(decoded, data::kCopyPad));  // fills the weights
    auto tokens = [](const Tensor& seq) {
        std::vector<std::string> out;
        for (std::int64_t t = 0; t < seq.size(1); ++t)
            out.push_back(t == 0 ? "<s>" : fmt::format("{}", static_cast<std::int64_t>(seq.at({0, t}))));
        return out;
    };
    // One kind from each layer's [1, H, Tq, Tk] weights.
    auto kind = [](const std::string& name, const std::vector<Tensor>& layers, const std::vector<std::string>& queries,
                   const std::vector<std::string>& keys) {
        plot::AttentionKind k{name, queries, keys, static_cast<std::int64_t>(layers.size()), layers.front().size(1),
                              {}};
        for (const Tensor& a : layers) {
            const std::vector<double> w = select(a, 0, 0).to_vector();
            k.weights.insert(k.weights.end(), w.begin(), w.end());
        }
        return k;
    };
    std::vector<Tensor> encoder_self, decoder_self, cross;
    for (std::size_t l = 0; l < model_->encoder->layers->size(); ++l)
        encoder_self.push_back((*model_->encoder->layers)[l].self_attn->last_attention());
    for (std::size_t l = 0; l < model_->decoder->layers->size(); ++l) {
        const models::DecoderLayer& layer = (*model_->decoder->layers)[l];
        decoder_self.push_back(layer.self_attn->last_attention());
        cross.push_back(layer.src_attn->last_attention());
    }
    const std::vector<std::string> source = tokens(b.src), output = tokens(decoded);
    return {fmt::format("{} task after {} steps: the attention of one held-out sequence", config_.task, step_),
            {kind("cross-attention (output tokens attend to source tokens)", cross, output, source),
             kind("encoder self-attention (source tokens attend to source tokens)", encoder_self, source, source),
             kind("decoder self-attention (masked: each output token sees only earlier ones)", decoder_self, output,
                  output)}};
}

TrainingSession::Evaluation TrainingSession::evaluate() const {
    NoGradGuard no_grad;
    nn::EvalGuard eval(*model_);
    Generator gen(config_.seed + 1000003);  // held out: never drawn in training
    const std::int64_t chunk = 100;
    Evaluation e;
    bool shown = false;
    while (e.seen < kEvalSequences) {
        const std::int64_t n = std::min(chunk, kEvalSequences - e.seen);
        const data::CopyBatch b = batch(n, gen);
        const models::Decoded d =
            models::greedy_decode(*model_, b.src, nn::padding_mask(b.src, data::kCopyPad), kSeqLen, 1);
        for (std::int64_t i = 0; i < n; ++i) {
            bool match = true;
            std::string in, want, out;
            for (std::int64_t t = 0; t < kSeqLen; ++t) {
                auto a = static_cast<std::int64_t>(b.src.at({i, t})),
                     c = static_cast<std::int64_t>(d.tokens.at({i, t}));
                auto w = t == 0 ? a : static_cast<std::int64_t>(b.tgt_out.at({i, t - 1}));
                match = match && w == c;
                in += fmt::format("{:>3}", a);
                want += fmt::format("{:>3}", w);
                out += fmt::format("{:>3}", c);
            }
            e.correct += match;
            if (!shown && i < kShow) {
                if (config_.task == "copy")
                    e.shown += fmt::format("  input {}\n  output{}   {}\n", in, out, match ? "match" : "DIFFERS");
                else
                    e.shown += fmt::format("  input {}\n  target{}\n  output{}   {}\n", in, want, out,
                                           match ? "match" : "DIFFERS");
            }
        }
        shown = true;
        e.seen += n;
    }
    e.line = fmt::format("exact-match accuracy: {}/{} = {:.1f}% of held-out sequences {} exactly", e.correct, e.seen,
                         100.0 * static_cast<double>(e.correct) / static_cast<double>(e.seen),
                         config_.task == "copy" ? "copied" : "reversed");
    return e;
}

}  // namespace web
