// GPT-2 (002 "The Big Picture and Takeaways": decoders auto-regressively sample the next
// token; Radford et al. 2019) with the weights OpenAI released, as the Hugging Face `gpt2`
// repository ships them: model.safetensors, vocab.json and merges.txt.
//   ./build/examples/gpt2 --weights model.safetensors --prompt "The meaning of life is" --tokens 100
//   ./build/examples/gpt2 --random                           the 124M shape, random weights (timing)
//   ./build/examples/gpt2 --weights m.safetensors --fine-tune text.txt --steps 100 --save tuned.safetensors
//   ./build/examples/gpt2 --resume tuned.safetensors.resume  a stopped fine-tuning, continued
//   ./build/examples/gpt2 --weights model.safetensors --prompt "The cat sat" --figures figs   its attention, drawn
//   ./build/examples/gpt2 --help                             every flag
// The tokenizer is read from --tokenizer, else from the weights' folder when it
// holds vocab.json and merges.txt, else from the copy in data/gpt2.
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/byte_pair_encoding.h"
#include "lectern/data/text_batch.h"
#include "lectern/data/text_file.h"
#include "lectern/data/utf8.h"
#include "lectern/run/figures/attention_figures.h"  // subword_label
#include "lectern/run/flags/adamw_flags.h"
#include "lectern/run/figures/attention_pages.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/data_parallel_run.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/shell/memory_budget.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/run/shell/output_lock.h"
#include "lectern/run/shell/program.h"
#include "lectern/run/training/run_state.h"
#include "lectern/run/shell/streamed_text.h"
#include "lectern/run/training/training_loop.h"
#include "lectern/models/generate.h"
#include "lectern/models/gpt2.h"
#include "lectern/nn/non_finite.h"
#include "lectern/nn/safetensors.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/nn/output_file.h"

using namespace autograd;

namespace {

const char* kWhereToGetWeights =
    "no weights given: download model.safetensors, vocab.json and merges.txt from https://huggingface.co/gpt2 "
    "(Files and versions) into one folder and pass --weights FOLDER/model.safetensors, or run --random to time the "
    "124M shape";

struct Options {
    std::string weights, config, tokenizer;
    bool random = false;
    std::string size = "124M";
    std::string prompt = "Hello, I'm a language model,";
    std::int64_t tokens = 100, top_k = 40;
    double temperature = 0.8;
    std::uint64_t seed = 1;
    std::string fine_tune, save, figures;  // save: the weights; the run's checkpoint is the resume state beside them
    std::int64_t steps = 100, batch = 4, context = 64;
    run::AdamWFlags adamw{.lr = 1e-4, .weight_decay = 0.1, .clip = 1.0};
};

// The fine-tuning's resume state (weights, AdamW's moments, the run record) is
// a Lectern checkpoint beside the safetensors --save names: FILE.resume.
const std::string kResumeSuffix = ".resume";

std::filesystem::path tokenizer_dir(const Options& o) {
    if (!o.tokenizer.empty()) return o.tokenizer;
    auto beside = std::filesystem::path(o.weights).parent_path();
    if (!o.weights.empty() && std::filesystem::exists(beside / "vocab.json") &&
        std::filesystem::exists(beside / "merges.txt"))
        return beside;
    return LECTERN_GPT2_TOKENIZER_DIR;
}

// The text's bytes and its GPT-2 tokens, each by size and CRC-32: a resumed
// run must train on the same tokens (the same text, the same tokenizer).
std::string text_digest(const std::string& text, const std::vector<std::int64_t>& ids) {
    return fmt::format("{} bytes, CRC-32 {:08x}; {} tokens, CRC-32 {:08x}", text.size(),
                       crc32_z(0L, reinterpret_cast<const Bytef*>(text.data()), text.size()), ids.size(),
                       crc32_z(0L, reinterpret_cast<const Bytef*>(ids.data()), ids.size() * sizeof ids[0]));
}

// The config.json written beside the fine-tuned weights.
std::string config_beside(const std::string& save) {
    return (std::filesystem::path(save).parent_path() / "config.json").string();
}

// Whether the config.json at `path` reads back as `c` (what save_gpt2_config would write).
bool describes(const std::string& path, const models::GPTConfig& c) {
    models::GPTConfig found;
    try {
        found = models::gpt2_config_from_json(path);
    } catch (const std::exception&) {
        return false;
    }
    return found.vocab == c.vocab && found.context == c.context && found.d_model == c.d_model &&
           found.n_layers == c.n_layers && found.heads == c.heads && found.d_ff == c.d_ff &&
           found.activation == c.activation && found.layer_norm_eps == c.layer_norm_eps &&
           found.tie_weights == c.tie_weights;
}

// A config.json already beside --save is another model's, or a user's own: it
// is never replaced. One that describes this model is kept as it is; any other
// is refused at flag time.
void require_config_free(const std::string& save, const models::GPTConfig& c) {
    const std::string config = config_beside(save);
    if (run::is_input(config) || !std::filesystem::exists(config) || describes(config, c)) return;
    throw CLI::ValidationError("--save", fmt::format("{} describes another model and is never overwritten: save into a "
                                                     "folder of its own",
                                                     config));
}

// Continues the model on the text's tokens: random windows of --context,
// AdamW with a warmup then a cosine to a tenth (char_lm's schedule), from step
// 0 or from the state --resume names (run::TrainingLoop: it saves the resume
// state, stops on signals and shares the windows between the ranks of an
// mpirun job). Rank 0 then writes the weights to --save.
void fine_tune(models::GPT& model, const data::BytePairEncoding& bpe, const Options& o, run::Run& r) {
    std::string text = data::read_text_file(o.fine_tune, std::size_t{1} << 30, "more than gpt2 fine-tunes on (1 GiB)");
    std::vector<std::int64_t> ids = bpe.encode(text);
    const std::string digest = text_digest(text, ids);
    data::TokenIds tokens(bpe.vocab_size());
    tokens.reserve(ids.size());
    for (auto id : ids) tokens.push_back(id);
    const auto n = static_cast<std::int64_t>(tokens.size());
    if (n < o.context + 1)
        throw data::DatasetError(fmt::format("{}: {} tokens, --context {} needs more", o.fine_tune, n, o.context));
    const run::AdamWFlags& a = o.adamw;
    run::say("fine-tuning on {}: {} tokens | {} steps of {} windows of {} | AdamW lr {}\n", o.fine_tune, n, o.steps,
             o.batch, o.context, a.lr);
    model.train();
    nn::optim::AdamW opt(nn::optim::weight_decay_groups(model, a.weight_decay),
                         {.lr = a.lr, .beta1 = 0.9, .beta2 = 0.95});
    nn::WarmupCosineSchedule schedule(a.lr, std::min<std::int64_t>({50, o.steps / 10 + 1, o.steps - 1}), o.steps,
                                      a.lr / 10);
    run::TrainingLoop loop(model, opt,
                           {.steps = o.steps,
                            .epoch_steps = o.steps,
                            .unit = "tok",
                            .lr = [&](std::int64_t step) { return schedule.lr(step); },
                            .clip = a.clip,
                            .epoch_lines = false,
                            .save_at_end = false},
                           r);
    Generator windows(o.seed);
    loop.keep("windows", windows);
    loop.keep([&](nn::RunRecord& r) { r.text["fine-tune text"] = digest; },
              [&](const nn::RunRecord& r, const std::string& path) {
                  auto saved = r.text.find("fine-tune text");
                  const std::string was = saved == r.text.end() ? "a text it does not record" : saved->second;
                  if (was != digest)
                      throw std::runtime_error(
                          fmt::format("{} was fine-tuned on {}; {} gives {}: resume on the same "
                                      "text and tokenizer",
                                      path, was, o.fine_tune, digest));
              });
    const data::TokenSpan span{&tokens, 0, tokens.size()};
    const auto [first, last] = loop.share(o.batch);  // this rank's windows of every step
    loop.run([&](std::int64_t) {
        std::vector<std::int64_t> starts(static_cast<std::size_t>(o.batch));
        for (auto& s : starts) s = windows.randint(n - o.context);  // the same on every rank
        const std::vector<std::int64_t> mine(starts.begin() + first, starts.begin() + last);
        data::TextBatch b = data::text_batch(span, mine, o.context);
        return run::StepLoss{cross_entropy(model.forward(b.inputs), b.targets), b.targets.numel(), o.batch * o.context};
    });
    model.eval();
    if (o.save.empty() || !loop.communicator().is_root()) return;
    run::require_not_an_input(o.save);
    models::save_gpt2_weights(model, o.save);
    run::say("weights written to {} (Hugging Face's GPT-2 layout)\n", o.save);
    // Its config.json beside it, so that a model whose heads are not 64 wide reads
    // back as itself; an input of this run there, or a file saying the same, is its
    // configuration already. Another file there was refused at flag time; one that
    // appeared during the training is left as it is.
    const std::string config = config_beside(o.save);
    if (!run::is_input(config) && !std::filesystem::exists(config)) {
        models::save_gpt2_config(model.config, config);
        run::say("its configuration written to {}\n", config);
    } else if (!run::is_input(config) && !describes(config, model.config)) {
        run::say(
            "{} appeared during the fine-tuning and describes another model: left as it is, this model's "
            "configuration not written\n",
            config);
    }
    // The state of a run now finished, and what writes of it killed runs left.
    for (const std::string& partial : nn::stale_temporaries(r.checkpoint.save)) std::filesystem::remove(partial);
    if (std::filesystem::remove(r.checkpoint.save))
        run::say("{} removed: the fine-tuning it would resume is done\n", r.checkpoint.save);
}

// What each layer and head attends to over the prompt and the text generated
// after it (its first 24 tokens, as char_lm draws 24 characters), one forward
// without the cache, as a page to explore in a browser: DIR/attention.html.
// Only the page: GPT-2's 12 x 12 heads (124M) would make a heat-map grid of
// 144 panels, 5520 x 4970 pixels, that no one reads; the page shows one head
// at a time and the 144 as thumbnails.
void write_attention_page(const models::GPT& model, const data::BytePairEncoding& bpe,
                          const std::vector<std::int64_t>& prompt, const std::vector<std::int64_t>& generated,
                          const std::string& dir) {
    std::vector<std::int64_t> ids = prompt;
    ids.insert(ids.end(), generated.begin(), generated.end());
    ids.resize(std::min<std::size_t>(ids.size(), 24));
    Tensor x = zeros({1, static_cast<std::int64_t>(ids.size())}, Dtype::int64);
    std::copy(ids.begin(), ids.end(), x.data<std::int64_t>());
    {
        NoGradGuard no_grad;
        model.forward(x);  // fills each block's attention weights, [1, H, T, T]
    }
    std::vector<Tensor> layers;
    for (std::size_t l = 0; l < model.blocks->size(); ++l) layers.push_back((*model.blocks)[l].attn->last_attention());
    std::vector<std::string> tokens;
    for (std::int64_t id : ids) tokens.push_back(run::subword_label(bpe.decode({id})));
    const std::string title = fmt::format("GPT-2: causal self-attention over the prompt and {} generated tokens",
                                          ids.size() - std::min(ids.size(), prompt.size()));
    run::say("attention to explore in a browser: {}\n",
             run::write_attention_page(dir + "/attention.html",
                                       {title,
                                        {run::attention_kind("causal self-attention (each token attends to itself "
                                                             "and earlier ones)",
                                                             layers, tokens, tokens)}}));
}

// The tokens generation continues: the prompt's, or GPT-2's start of a document
// for an empty one. Refused when the model's context cannot hold them and one
// new token (encoding costs O(L log L) in the longest word, so a prompt of
// 120,000 letters is counted in milliseconds).
std::vector<std::int64_t> prompt_tokens(const Options& o, const data::BytePairEncoding& bpe,
                                        const models::GPTConfig& c) {
    std::vector<std::int64_t> prompt = bpe.encode(o.prompt);
    if (prompt.empty() && c.vocab != 50257) throw CLI::ValidationError("--prompt", "is empty: give a text to continue");
    if (prompt.empty()) prompt = {50256};  // <|endoftext|>: GPT-2's start of a document
    if (static_cast<std::int64_t>(prompt.size()) >= c.context)
        throw CLI::ValidationError("--prompt", fmt::format("its {} tokens leave no room for a new one in the "
                                                           "model's context of {}",
                                                           prompt.size(), c.context));
    return prompt;
}

// What check_flags read and work need: the tokenizer and the prompt's tokens,
// when the weights' header and the tokenizer could be read before the work.
struct Prepared {
    std::optional<data::BytePairEncoding> bpe;
    std::vector<std::int64_t> prompt;
};

// The model: the --size shape with random weights, or --weights. A stop
// signal meanwhile ends the run at once, since nothing is made yet to save.
std::shared_ptr<models::GPT> make_or_load(const run::Run& r, const Options& o) {
    const run::NothingToSave scope(r.name(), o.random ? "making the weights" : "loading " + o.weights);
    if (o.random) return models::make_gpt(models::gpt2_config(o.size));
    const nn::SafetensorsFile file(o.weights);
    const models::GPT2Configuration found = models::find_gpt2_config(file, o.config);
    run::say("{}\n", found.description);
    std::shared_ptr<models::GPT> model = models::load_gpt2(file, found.config);
    try {
        // NaN weights would generate "?????" without a word; named as the file names them
        nn::check_finite_parameters(*model,
                                    [&](const std::string& p) { return models::gpt2_tensor_of(found.config, p); });
    } catch (const nn::NonFiniteError& e) {
        throw std::runtime_error(fmt::format("{}: {}: the weights are damaged", o.weights, e.what()));
    }
    return model;
}

int work(run::Run& r, const Options& o, Prepared& prepared) {
    if (o.fine_tune.empty() && !r.is_root()) return 0;  // generating alone is rank 0's work
    auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<models::GPT> model = make_or_load(r, o);
    model->eval();
    const double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto& c = model->config;
    r.announce(
        fmt::format("GPT-2 {}: N={} d_model={} h={} d_ff={} context {} vocab {}, {:.1f}M parameters, {} in {:.1f} s",
                    o.random ? o.size + " with random weights" : o.weights, c.n_layers, c.d_model, c.heads, c.d_ff,
                    c.context, c.vocab, static_cast<double>(model->parameter_count()) / 1e6,
                    o.random ? "made" : "loaded", load_seconds));
    if (!prepared.bpe) prepared.bpe.emplace(data::BytePairEncoding::from_directory(tokenizer_dir(o)));
    const data::BytePairEncoding& bpe = *prepared.bpe;
    if (bpe.vocab_size() != c.vocab)
        throw data::DatasetError(fmt::format("the tokenizer of {} has {} tokens, the model {}",
                                             tokenizer_dir(o).string(), bpe.vocab_size(), c.vocab));
    if (!o.fine_tune.empty()) fine_tune(*model, bpe, o, r);
    if (!r.is_root()) return 0;  // rank 0 samples from the model every rank holds

    const std::vector<std::int64_t> prompt = prepared.prompt.empty() ? prompt_tokens(o, bpe, c) : prepared.prompt;
    if (run::stop_signal()) return 0;  // stopped while loading: run_program exits 128 + signal
    // Each token is printed as it is drawn; a stop signal (Ctrl-C) ends the
    // text there, what was printed stays, and the program exits 128 + signal.
    run::StreamedText text;
    models::SamplingOptions so{.max_new_tokens = o.tokens,
                               .temperature = o.temperature,
                               .top_k = o.top_k,
                               .end_token = -1,
                               .use_cache = true,
                               .on_token = [&](std::int64_t token) {
                                   text.add(bpe.token(token));
                                   return run::stop_signal() == 0;
                               }};
    Generator gen(o.seed);
    run::say("--- up to {} tokens (temperature {}, top-k {}, seed {}) ---\n", o.tokens, o.temperature, o.top_k, o.seed);
    text.add(o.prompt);
    start = std::chrono::steady_clock::now();
    std::vector<std::int64_t> out = models::generate(*model, prompt, so, gen);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    text.finish();
    run::say("\n---\n{} prompt tokens, {} new in {:.2f} s: {:.1f} tokens/s with the KV cache{}\n", prompt.size(),
             out.size(), seconds, static_cast<double>(out.size()) / seconds,
             run::stop_signal() ? fmt::format("; stopped by {}", run::signal_name(run::stop_signal())) : "");
    if (!o.figures.empty()) write_attention_page(*model, bpe, prompt, out, o.figures);
    return 0;
}

// The flags, in the groups the resume state records (run/flags/flag_groups.h); the
// text is recorded by its digest too.
void add_flags(run::Flags& f, Options& o) {
    run::FlagGroup model = f.group("Model", run::Recorded::model);
    model.add("--weights", o.weights, "GPT-2 weights, Hugging Face's model.safetensors (F32, F16 or BF16)")
        ->check(CLI::ExistingFile);
    model
        .add("--config", o.config,
             "GPT-2's config.json (Hugging Face's); default: the config.json beside --weights, else inferred from the "
             "weights' shapes (heads of 64, as OpenAI's four sizes have)")
        ->check(CLI::ExistingFile);
    model.flag("--random", o.random, "random weights of the --size shape instead of --weights (for timing)");
    model.add("--size", o.size, "the shape --random builds")->check(CLI::IsMember({"124M", "355M", "774M", "1558M"}));

    run::FlagGroup generation = f.group("Generation", run::Recorded::none);
    generation.add("--prompt", o.prompt, "the text to continue");
    generation.add("--tokens", o.tokens, "new tokens to generate")->check(CLI::Range(1, 100000));
    generation.add("--top-k", o.top_k, "sample among the k most probable tokens; 0: all")->check(CLI::Range(0, 100000));
    generation.add("--temperature", o.temperature, "sampling temperature; 0: greedy")
        ->check(run::finite_range(0.0, 100.0));
    f.group("Generation", run::Recorded::run)
        .add("--seed", o.seed, "seed of sampling and of the fine-tuning's windows")
        ->check(run::seed_value());
    generation
        .add("--figures", o.figures,
             "draw the attention over the prompt and the generated text (their first 24 tokens) into this "
             "folder, as a page to explore in a browser: attention.html")
        ->check(run::path_value());

    run::FlagGroup training = f.group("Fine-tuning", run::Recorded::training);
    training.add("--fine-tune", o.fine_tune, "continue training on this text before generating")
        ->check(CLI::ExistingFile)
        ->check(run::text_file_value());
    training.add("--tokenizer", o.tokenizer, "a folder with vocab.json + merges.txt (or encoder.json + vocab.bpe)")
        ->check(CLI::ExistingDirectory);
    training.add("--steps", o.steps, "fine-tuning steps")->check(CLI::Range(1, 10000000));
    training.add("--batch", o.batch, "fine-tuning windows per step")->check(CLI::Range(1, 4096));
    training.add("--context", o.context, "fine-tuning window, tokens")->check(CLI::Range(1, 1024));
    run::add_adamw_flags(training, o.adamw, "peak learning rate (AdamW; warmup, then cosine to a tenth)");
}

// The checkpoint flags: --save names the fine-tuned weights, and the run's
// checkpoint (the state a stopped run resumes from) goes beside them, to
// FILE.resume; --resume names that state, or the weights FILE it was saved
// beside. No --load: the weights are loaded with --weights.
void add_checkpoint_flags(run::FlagGroup& group, run::CheckpointFlags& checkpoint, Options& o) {
    group
        .add("--save", o.save,
             "write the fine-tuned weights here (safetensors, Hugging Face's layout); the state a stopped run "
             "resumes from goes beside it, to FILE" +
                 kResumeSuffix +
                 ", at each --save-every and when stopped "
                 "by Ctrl-C or SIGTERM")
        ->check(run::path_value())
        ->each([&checkpoint](const std::string& save) { checkpoint.save = save + kResumeSuffix; });
    group
        .add("--save-every", checkpoint.save_every,
             "also save the resume state every N steps, or every N minutes with Nm (e.g. 500, 10m)")
        ->check(run::save_every_value());
    group
        .add("--resume", checkpoint.resume,
             "continue the fine-tuning saved in FILE" + kResumeSuffix +
                 " (named so, or as FILE), to the same "
                 "--save FILE as a run never stopped (its flags are adopted; --save defaults to FILE)")
        ->check(run::path_value())
        ->transform(CLI::Validator(
            [](std::string& resume) {
                if (!resume.ends_with(kResumeSuffix) && std::filesystem::exists(resume + kResumeSuffix))
                    resume += kResumeSuffix;
                return std::string();
            },
            ""));
}

// What no single flag's check can see, before any work: the resume state read
// (its flags adopted or refused), flags that must agree, the batch shared by
// the ranks, and outputs that destroy no input.
// The bytes a run holds: the weights, and with --fine-tune AdamW's step over
// --batch windows of --context, the logits [B, T, V] kept with their softmax;
// or generation's cache of keys and values over the context.
run::MemoryEstimate memory_estimate(const Options& o, const models::GPTConfig& c) {
    const auto N = static_cast<double>(c.n_layers), D = static_cast<double>(c.d_model), F = static_cast<double>(c.d_ff),
               V = static_cast<double>(c.vocab), H = static_cast<double>(c.heads), P = static_cast<double>(c.context);
    const bool training = !o.fine_tune.empty();
    const double B = training ? static_cast<double>(o.batch) : 1, T = training ? static_cast<double>(o.context) : P;
    run::MemoryEstimate e;
    e.parameters = c.parameter_count();
    e.activations = training ? run::transformer_activations(N, B, T, D, F, H, T) + 3 * B * T * V : 2 * N * P * D + V;
    return e;
}

// The configuration the run will build, from --size or the weights' header
// (read, not loaded); nothing when the header cannot be read: loading says why.
std::optional<models::GPTConfig> planned_config(const Options& o) {
    if (o.random) return models::gpt2_config(o.size);
    try {
        return models::find_gpt2_config(nn::SafetensorsFile(o.weights), o.config).config;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// A fine-tuning window the model or the text cannot hold, refused from the
// weights' header and the text's size, before minutes of loading: a window
// longer than the model's positions, or a text of fewer bytes than a window
// needs tokens (a token is a byte or more).
void require_fine_tuning_fits(const Options& o, const models::GPTConfig& c) {
    if (o.fine_tune.empty()) return;
    if (o.context > c.context)
        throw CLI::ValidationError("--context",
                                   fmt::format("{} is longer than the model's {} positions", o.context, c.context));
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(o.fine_tune, ec);
    if (!ec && bytes < static_cast<std::uintmax_t>(o.context) + 1)
        throw CLI::ValidationError("--fine-tune", fmt::format("{} holds {} bytes, fewer than the {} tokens a window of "
                                                              "--context {} needs with its next token",
                                                              o.fine_tune, bytes, o.context + 1, o.context));
}

void check_flags(const run::Run& r, Options& o, Prepared& prepared) {
    const std::string& resume = r.checkpoint.resume;
    if (o.save.empty() && !resume.empty()) {
        if (!resume.ends_with(kResumeSuffix) || resume == kResumeSuffix)
            throw CLI::ValidationError("--resume", fmt::format("{} is not named FILE{}: give --save FILE for the "
                                                               "fine-tuned weights",
                                                               resume, kResumeSuffix));
        o.save = resume.substr(0, resume.size() - kResumeSuffix.size());
    }
    if (o.weights.empty() && !o.random) throw CLI::ValidationError("--weights", kWhereToGetWeights);
    if (!o.weights.empty() && o.random) throw CLI::ValidationError("--random", "is instead of --weights, not with it");
    if (!o.save.empty() && o.fine_tune.empty())
        throw CLI::ValidationError("--save", "writes what --fine-tune trained: give both");
    if (!o.fine_tune.empty()) run::require_batch_per_rank("--batch", o.batch);
    if (!o.config.empty() && o.random) throw CLI::ValidationError("--config", "configures --weights, not --random");
    run::register_input(o.weights);
    run::register_input(o.config);
    if (!o.weights.empty() && o.config.empty())  // the config.json find_gpt2_config would read
        run::register_input((std::filesystem::path(o.weights).parent_path() / "config.json").string());
    run::register_input(o.fine_tune);
    run::check_output_file("--save", o.save);
    run::check_output_file("--save", r.checkpoint.save);
    if (!o.save.empty() && !run::is_input(config_beside(o.save)))
        run::check_output_file("--save", config_beside(o.save));
    run::check_output_folder("--figures", o.figures);
    const auto c = planned_config(o);  // nothing when the weights' header cannot be read: loading says why
    if (c) {
        require_fine_tuning_fits(o, *c);
        run::require_memory("--batch", memory_estimate(o, *c), !o.fine_tune.empty());
    }
    run::lock_output("--save", o.save);  // the weights and the resume state beside them
    try {
        data::decode_utf8(o.prompt);
    } catch (const data::DatasetError&) {
        throw CLI::ValidationError("--prompt", "is not valid UTF-8");
    }
    if (!c) return;
    if (!o.save.empty()) require_config_free(o.save, *c);
    try {  // a prompt the model cannot continue is refused before hours of fine-tuning
        prepared.bpe.emplace(data::BytePairEncoding::from_directory(tokenizer_dir(o)));
    } catch (const std::exception&) {
        return;  // the work says what is wrong with the tokenizer's files
    }
    if (prepared.bpe->vocab_size() == c->vocab) prepared.prompt = prompt_tokens(o, *prepared.bpe, *c);
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    Prepared prepared;
    return run::main(argc, argv,
                     {.name = "gpt2",
                      .about = "Run GPT-2 from its safetensors weights: generate text, or fine-tune it on a text.",
                      .seed = &o.seed,
                      .flags = [&](run::Flags& f) { add_flags(f, o); },
                      .checkpoint_flags = [&](run::FlagGroup& g,
                                              run::CheckpointFlags& c) { add_checkpoint_flags(g, c, o); },
                      .check = [&](run::Run& r) { check_flags(r, o, prepared); },
                      .work = [&](run::Run& r) { return work(r, o, prepared); }});
}
