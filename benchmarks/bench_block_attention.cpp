// Full causal self-attention against block-local attention (004 §15.6.1,
// table 15.1): O(T^2 d) against O(T L d) for blocks of L positions (the notes'
// K = T / L blocks: O(T^2 d / K)). Times one
// MultiHeadAttention forward, and forward + backward, at sequence lengths
// 128..2048 and prints the ratios: full attention's time grows ~4x per doubling
// of T once the T x T scores dominate, block-local's ~2x. Medians of 5 runs,
// float32. Figures only; it never passes or fails. --figures DIR draws the
// times and the bytes of attention weights kept for backward against T, log-log.
//   ./build/benchmarks/bench_block_attention [--block 64] [--d-model 128] [--heads 4] [--threads 2] [--figures DIR]
#include <cstdio>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "benchmarks/machine.h"
#include "lectern/run/figures/figure_files.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/output_files.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/multi_head_attention.h"

using namespace autograd;

namespace {

template <class F>
double median_ms(F f) {
    return 1e3 * benchmarks::median_seconds(f, 5);
}

}  // namespace

int main(int argc, char** argv) {
    // Each row reaches a log or a pipe as it is measured: a large --d-model takes minutes a row.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    std::int64_t block = 64, d_model = 128, heads = 4;
    int threads = 2;
    std::string figures;
    CLI::App app{"Time full causal attention against block-local attention as the sequence grows."};
    app.add_option("--block", block, "L, positions per block")->check(CLI::Range(1, 4096));
    app.add_option("--d-model", d_model, "model width")->check(CLI::Range(1, 4096));
    app.add_option("--heads", heads, "attention heads (must divide --d-model)")->check(CLI::Range(1, 256));
    app.add_option("--threads", threads, "threads (BLAS)")->check(CLI::Range(1, 256));
    app.add_option("--figures", figures, "draw time and memory against T into this folder (PNG and SVG)")
        ->check(run::path_value());
    if (int status = run::parse_flags(app, argc, argv, "bench_block_attention",
                                      [&] {
                                          if (d_model % heads != 0)
                                              throw CLI::ValidationError("--heads", "must divide --d-model");
                                          run::check_output_folder("--figures", figures);
                                      });
        status >= 0)
        return status;
    plot::Curve full_time{"full causal", {}, {}}, local_time{fmt::format("block-local, L = {}", block), {}, {}};
    plot::Curve full_bytes = full_time, local_bytes = local_time;
    set_num_threads(threads);
    nn::MultiHeadAttention mha(d_model, heads);
    Generator g(0);
    fmt::print(
        "causal self-attention, batch 1, d_model {}, {} heads, block-local blocks of L = {}, {} threads (medians of 5, "
        "ms)\n",
        d_model, heads, block, threads);
    fmt::print("weights: {:.2f} GB; the attention weights at T = 2048: {:.2f} GB\n",
               4.0 * 4 * static_cast<double>(d_model * d_model) / 1e9,
               4.0 * static_cast<double>(heads) * 2048 * 2048 / 1e9);
    fmt::print("{:>6} | {:>10} {:>10} {:>7} | {:>10} {:>10} {:>7}\n", "T", "full fwd", "local fwd", "ratio", "full f+b",
               "local f+b", "ratio");
    for (std::int64_t T : {128, 256, 512, 1024, 2048}) {
        Tensor x = randn({1, T, d_model}, g).requires_grad_();
        Tensor mask = nn::subsequent_mask(T);
        auto full = [&] { return mha.self_attention(x, mask); };
        auto local = [&] {
            return mha.self_attention(x, Tensor(), nn::AttentionPattern::block_local(block, nn::Direction::causal));
        };
        double full_fwd = median_ms([&] {
            NoGradGuard no_grad;
            full();
        });
        double local_fwd = median_ms([&] {
            NoGradGuard no_grad;
            local();
        });
        double full_both = median_ms([&] { sum(full()).backward(); });
        double local_both = median_ms([&] { sum(local()).backward(); });
        const auto t = static_cast<double>(T);
        full_time.x.push_back(t), full_time.y.push_back(full_both), local_time.x.push_back(t),
            local_time.y.push_back(local_both);
        // the attention weights P each forward keeps for backward: [H, T, T] against [T/L, H, L, L]
        full();
        full_bytes.x.push_back(t), full_bytes.y.push_back(4.0 * static_cast<double>(mha.last_attention().numel()));
        local();
        local_bytes.x.push_back(t), local_bytes.y.push_back(4.0 * static_cast<double>(mha.last_attention().numel()));
        fmt::print("{:>6} | {:>10.2f} {:>10.2f} {:>6.1f}x | {:>10.2f} {:>10.2f} {:>6.1f}x\n", T, full_fwd, local_fwd,
                   full_fwd / local_fwd, full_both, local_both, full_both / local_both);
    }
    fmt::print(
        "Expected: full attention costs O(T^2 d), block-local O(T L d) = O(T^2 d / K) with K = T / L blocks, so\n"
        "once the scores dominate the ratio doubles with T (K = {} at T = 2048); the projections, O(T d^2), are\n"
        "the same in both.\n",
        2048 / block);
    if (figures.empty()) return 0;
    try {
        plot::LinePlot time{"Time of one forward + backward",
                            "sequence length T",
                            "milliseconds (median of 5)",
                            {full_time, local_time},
                            true,
                            true};
        plot::LinePlot memory{"Attention weights kept for backward",
                              "sequence length T",
                              "bytes",
                              {full_bytes, local_bytes},
                              true,
                              true};
        const plot::Figure
            figure{fmt::format("Full against block-local causal attention (d_model {}, {} heads, {} threads)", d_model,
                               heads, threads),
                   2,
                   1100,
                   480,
                   {time, memory}};
        for (const std::string& path : run::write_figure(figures + "/attention_cost", figure)) fmt::print("{}\n", path);
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_block_attention: {}\n", e.what());
        return 1;
    }
    return 0;
}
