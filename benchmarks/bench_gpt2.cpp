// GPT-2 at full size (124M by default) with random weights: generation speed
// with the KV cache beside the machine's limit, a training step beside the
// sgemm peak, and the peak RSS. Figures, never a pass or a fail.
//   ./build/benchmarks/bench_gpt2 [--size 124M] [--tokens 64] [--threads 2] [--no-train]
//   /usr/bin/python3 benchmarks/gpt2_pytorch.py      PyTorch on the same shapes
// The limit of generation: at batch 1 each new token reads every weight once,
// so tokens/s cannot pass (read bandwidth) / (bytes of weights); the read
// bandwidth is the fastest of three read loops over buffers far larger than
// the caches (memory_bandwidth). A copy loop is timed beside them.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchmarks/machine.h"
#include "lectern/autograd/blas_core.h"
#include "lectern/models/generate.h"
#include "lectern/models/gpt2.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adamw.h"

using namespace autograd;

namespace {

// The machine's memory bandwidth, each figure the median of 5 passes over 512 MiB split over
// `threads` threads of its own: a copy loop (each byte read once and written once), and the
// fastest of three read loops (each byte read once and summed), the way generation reads the
// weights. A core keeps only so many reads in flight, so how fast reads alone can go depends on
// how far ahead they are asked for: the read loops are a plain one, one that asks for each line
// 32 KiB ahead into L2, and one that does so on two streams a thread. Generation writes nothing,
// so its limit is the reads' (the copy loop's bytes are half writes, which the memory takes
// beside the reads: a copy can move more bytes a second than reads alone).
struct Bandwidth {
    double copy, plain, ahead, two_streams;  // bytes per second
    double read() const { return std::max({plain, ahead, two_streams}); }
};

// The sum of src[b, e), in 32 running sums (four vector registers: the adds never wait for
// each other, so only the memory sets the pace); with `ahead` > 0 each line's read asks for the
// line `ahead` floats further on, short of `end`.
float read_sum(const float* src, std::size_t b, std::size_t e, std::size_t ahead, std::size_t end) {
    constexpr std::size_t kSums = 32;  // floats: two lines
    float sums[kSums] = {};
    for (std::size_t i = b; i + kSums <= e; i += kSums) {
        if (ahead)
            for (std::size_t line = 0; line < kSums; line += 16)
                if (i + line + ahead < end) __builtin_prefetch(src + i + line + ahead, 0, 2);
        for (std::size_t j = 0; j < kSums; ++j) sums[j] += src[i + j];
    }
    return std::accumulate(sums, sums + kSums, 0.0f);
}

Bandwidth memory_bandwidth(int threads) {
    const std::size_t n = std::size_t{128} << 20;  // floats: 512 MiB
    std::vector<float> src(n, 1.0f), dst(n, 0.0f);
    auto split = [&](auto pass) {
        std::vector<std::thread> parts;
        for (int part = 0; part < threads; ++part)
            parts.emplace_back([&, part] { pass(n * part / threads, n * (part + 1) / threads); });
        for (std::thread& p : parts) p.join();
    };
    const double copy = benchmarks::median_seconds(
        [&] {
            split([&](std::size_t b, std::size_t e) {
                std::memcpy(dst.data() + b, src.data() + b, (e - b) * sizeof(float));
            });
        },
        5);
    constexpr std::size_t kAhead = (32 << 10) / sizeof(float);
    const double plain = benchmarks::median_seconds(
        [&] { split([&](std::size_t b, std::size_t e) { dst[b] = read_sum(src.data(), b, e, 0, n); }); }, 5);
    const double ahead = benchmarks::median_seconds(
        [&] { split([&](std::size_t b, std::size_t e) { dst[b] = read_sum(src.data(), b, e, kAhead, n); }); }, 5);
    // Two streams a thread: the halves of its part read in turn, 4 KiB of each at a time.
    const double two_streams = benchmarks::median_seconds(
        [&] {
            split([&](std::size_t b, std::size_t e) {
                constexpr std::size_t kStep = 1024;  // floats
                const std::size_t half = (e - b) / 2;
                float total = 0;
                for (std::size_t i = 0; i + kStep <= half; i += kStep)
                    total += read_sum(src.data(), b + i, b + i + kStep, kAhead, b + half) +
                             read_sum(src.data(), b + half + i, b + half + i + kStep, kAhead, e);
                dst[b] = total;
            });
        },
        5);
    const double bytes = static_cast<double>(n * sizeof(float));
    return {2 * bytes / copy, bytes / plain, bytes / ahead, bytes / two_streams};
}

// Seconds of the training step's linear layers alone, forward and backward at `rows` tokens:
// q, k, v stacked, the attention's output, the MLP's two, in each of the L blocks, and the tied
// head. These products are the part of the step that can run at the sgemm peak; what the step
// spends beyond them (attention, layer norms, GELU, the logits' softmax, AdamW) is memory-bound.
double linear_layers_seconds(const models::GPTConfig& c, std::int64_t rows, int runs) {
    struct Layer {
        Tensor x, w, b, dy;
    };
    Generator gen(3);
    std::vector<Layer> layers;
    auto add = [&](std::int64_t in, std::int64_t out, bool bias) {
        Layer l{randn({rows, in}, gen).requires_grad_(), randn({out, in}, gen).requires_grad_(),
                bias ? randn({out}, gen).requires_grad_() : Tensor(), randn({rows, out}, gen)};
        layers.push_back(l);
    };
    for (std::int64_t i = 0; i < c.n_layers; ++i) {
        add(c.d_model, 3 * c.d_model, true);
        add(c.d_model, c.d_model, true);
        add(c.d_model, c.d_ff, true);
        add(c.d_ff, c.d_model, true);
    }
    add(c.d_model, c.vocab, false);
    return benchmarks::median_seconds(
        [&] {
            for (Layer& l : layers) {
                for (Tensor* t : {&l.x, &l.w, &l.b})
                    if (t->defined()) t->zero_grad();
                linear(l.x, l.w, l.b).backward(l.dy);
            }
        },
        runs);
}

}  // namespace

int main(int argc, char** argv) {
    std::string size = "124M";
    std::int64_t tokens = 64, batch = 4, context = 64;
    int threads = 2, train_steps = 5, rounds = 5;
    bool no_train = false;
    CLI::App app{"GPT-2 generation and training speed against the machine's limits"};
    app.add_option("--size", size, "GPT-2 shape")->check(CLI::IsMember({"124M", "355M", "774M"}));
    app.add_option("--tokens", tokens, "tokens generated (greedy, with the KV cache)")->check(CLI::Range(1, 1000));
    app.add_option("--threads", threads, "threads")->check(CLI::Range(1, 256));
    app.add_option("--batch", batch, "training batch")->check(CLI::Range(1, 64));
    app.add_option("--context", context, "training window")->check(CLI::Range(1, 1024));
    app.add_option("--train-steps", train_steps, "timed training steps (median)")->check(CLI::Range(1, 100));
    app.add_option("--rounds", rounds, "generation and copy-loop measurements, in turn (median)")
        ->check(CLI::Range(1, 50));
    app.add_flag("--no-train", no_train, "generation only");
    CLI11_PARSE(app, argc, argv);
    set_num_threads(threads);

    const models::GPTConfig c = models::gpt2_config(size);
    auto model = models::make_gpt(c);
    model->eval();
    const double params = static_cast<double>(model->parameter_count());
    const double weight_bytes = params * 4;
    fmt::print("GPT-2 {} ({:.1f}M parameters, {:.0f} MB float32), {} threads, OpenBLAS's {} kernels\n", size,
               params / 1e6, weight_bytes / 1e6, threads, blas_core_name());

    std::vector<std::int64_t> prompt = {464, 3290, 286, 1204, 318, 257, 1310, 11};  // 8 tokens
    models::SamplingOptions so;
    so.max_new_tokens = tokens, so.temperature = 0, so.top_k = 0, so.end_token = -1, so.use_cache = true;
    models::SamplingOptions warm_up = so;
    warm_up.max_new_tokens = 4;
    Generator gen(1);
    models::generate(*model, prompt, warm_up, gen);  // the allocator fills
    // Generation and the bandwidth loops in turn, `rounds` times. Each round's ratio compares two
    // measurements seconds apart; the bandwidth a shared host gives moves between runs by up to
    // a factor of 2, and the ratio within a round moves much less than either figure.
    std::vector<double> tok_s, below;
    std::vector<Bandwidth> loops;
    std::size_t generated = 0;
    double rss_generation = 0;  // before the bandwidth loops' 1 GiB of buffers counts
    for (int round = 0; round < rounds; ++round) {
        const auto start = std::chrono::steady_clock::now();
        generated = models::generate(*model, prompt, so, gen).size();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        tok_s.push_back(static_cast<double>(generated) / seconds);
        if (round == 0) rss_generation = benchmarks::peak_rss_mb();
        const Bandwidth b = memory_bandwidth(threads);
        loops.push_back(b);
        below.push_back(b.read() / weight_bytes / tok_s.back());
    }
    auto middle = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    auto middle_of = [&](double Bandwidth::*loop) {
        std::vector<double> v;
        for (const Bandwidth& b : loops) v.push_back(b.*loop);
        return middle(v);
    };
    const Bandwidth measured{middle_of(&Bandwidth::copy), middle_of(&Bandwidth::plain), middle_of(&Bandwidth::ahead),
                             middle_of(&Bandwidth::two_streams)};
    const double bandwidth = measured.read();
    std::sort(below.begin(), below.end());
    fmt::print(
        "generation, batch 1, greedy, KV cache: {:.1f} tokens/s ({} tokens, prompt 8; median of {} rounds): the "
        "weights streamed at {:.1f} GB/s\n",
        middle(tok_s), generated, rounds, middle(tok_s) * weight_bytes / 1e9);
    fmt::print(
        "  memory bandwidth: read loops {:.1f} (plain), {:.1f} (asked ahead), {:.1f} (two streams) GB/s -> "
        "limit {:.1f} tokens/s at the fastest (copy loop {:.1f} GB/s); Lectern at {:.0f}% of it ({:.2f}x below; "
        "each round's limit over its own generation, sorted: {:.2f})\n",
        measured.plain / 1e9, measured.ahead / 1e9, measured.two_streams / 1e9, bandwidth / weight_bytes,
        measured.copy / 1e9, 100 / middle(below), middle(below), fmt::join(below, ", "));
    fmt::print("  peak RSS after generation {:.0f} MB\n", rss_generation);
    if (no_train) return 0;

    model->train();
    nn::optim::AdamW opt(model->parameters(), {.lr = 1e-4, .beta1 = 0.9, .beta2 = 0.95, .weight_decay = 0.1});
    Generator data(2);
    std::vector<double> in_ids, target_ids;  // a random text: target t is input t + 1
    for (std::int64_t b = 0; b < batch; ++b) {
        std::vector<double> text;
        for (std::int64_t t = 0; t <= context; ++t) text.push_back(static_cast<double>(data.randint(c.vocab)));
        in_ids.insert(in_ids.end(), text.begin(), text.end() - 1);
        target_ids.insert(target_ids.end(), text.begin() + 1, text.end());
    }
    Tensor inputs = tensor(in_ids, {batch, context}, Dtype::int64),
           targets = tensor(target_ids, {batch, context}, Dtype::int64);
    // The step, and each of its phases: the median of each over the timed steps.
    using Clock = std::chrono::steady_clock;
    std::vector<double> forward_s, backward_s, update_s;
    const double step_seconds = benchmarks::median_seconds(
        [&] {
            const auto t0 = Clock::now();
            opt.zero_grad();
            Tensor loss = cross_entropy(model->forward(inputs), targets);
            const auto t1 = Clock::now();
            loss.backward();
            const auto t2 = Clock::now();
            opt.step();
            const auto t3 = Clock::now();
            forward_s.push_back(std::chrono::duration<double>(t1 - t0).count());
            backward_s.push_back(std::chrono::duration<double>(t2 - t1).count());
            update_s.push_back(std::chrono::duration<double>(t3 - t2).count());
        },
        train_steps);
    auto median = [](std::vector<double> v) {
        std::sort(v.begin() + 1, v.end());  // the untimed first step left out
        return v[1 + (v.size() - 1) / 2];
    };
    // 6 FLOPs per weight per token for the matrix products (forward 2, backward 4),
    // the tied head included, plus attention's Q K^T and P V (12 L B T^2 D forward and backward).
    const double D = static_cast<double>(c.d_model), L = static_cast<double>(c.n_layers),
                 V = static_cast<double>(c.vocab), F = static_cast<double>(c.d_ff), B = static_cast<double>(batch),
                 T = static_cast<double>(context);
    const double flops = 6 * B * T * (L * (4 * D * D + 2 * D * F) + V * D) + 12 * L * B * T * T * D;
    const auto peak = benchmarks::measure_sgemm_peak(2048, 5);
    fmt::print(
        "training step, batch {} x context {}, AdamW: {:.3f} s, {:.1f} GFLOP/s = {:.0f}% of the sgemm peak ({:.1f} "
        "GFLOP/s at n {})\n",
        batch, context, step_seconds, flops / step_seconds / 1e9, 100 * flops / step_seconds / 1e9 / peak.gflops,
        peak.gflops, peak.n);
    const double linear_seconds = linear_layers_seconds(c, batch * context, train_steps);
    const double linear_flops = 6 * B * T * (L * (4 * D * D + 2 * D * F) + V * D);
    fmt::print(
        "  its linear layers alone, forward and backward: {:.3f} s, {:.1f} GFLOP/s = {:.0f}% of the peak; the rest "
        "of the step {:.3f} s\n",
        linear_seconds, linear_flops / linear_seconds / 1e9, 100 * linear_flops / linear_seconds / 1e9 / peak.gflops,
        step_seconds - linear_seconds);
    // AdamW reads each parameter, its gradient and both moments and writes three of them:
    // 28 bytes a parameter. Its seven streams move more than the loops' one or two, so its
    // floor is taken at the fastest of the rates this run saw.
    const double forward = median(forward_s), backward = median(backward_s), update = median(update_s);
    const double adamw_bytes = 28 * params, adamw_rate = adamw_bytes / update;
    const double adamw_floor = adamw_bytes / std::max(bandwidth, adamw_rate);
    fmt::print(
        "  where the step goes: forward and loss {:.3f} s, backward {:.3f} s, AdamW {:.3f} s ({:.1f} GB at {:.1f} "
        "GB/s, "
        "{:.0f}% of the faster loop's bandwidth)\n",
        forward, backward, update, adamw_bytes / 1e9, adamw_rate / 1e9, 100 * adamw_rate / bandwidth);
    fmt::print("  outside the linear layers and AdamW: {:.3f} s (attention, layer norms, GELU, softmax, embeddings)\n",
               step_seconds - linear_seconds - update);
    // Two floors of the step, nothing but the linear layers and AdamW at its floor: the
    // linear layers at the sgemm peak, and at the rate they reach alone on these shapes.
    auto percent = [&](double seconds) { return 100 * flops / seconds / 1e9 / peak.gflops; };
    const double at_peak = linear_flops / (peak.gflops * 1e9) + adamw_floor, as_run = linear_seconds + adamw_floor;
    fmt::print(
        "  the step's floor, linear layers and AdamW at its floor, nothing else: {:.3f} s ({:.0f}% of the peak) with "
        "the linear layers at the sgemm peak, {:.3f} s ({:.1f}%) at their own rate\n",
        at_peak, percent(at_peak), as_run, percent(as_run));
    fmt::print("  peak RSS with training {:.0f} MB\n", benchmarks::peak_rss_mb());
    return 0;
}
