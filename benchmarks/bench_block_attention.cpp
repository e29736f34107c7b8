// Full causal self-attention against block-local attention (004 §15.6.1,
// table 15.1): O(T^2 d) against O(T L d) for blocks of L positions (the notes'
// K = T / L blocks: O(T^2 d / K)). Times one
// MultiHeadAttention forward, and forward + backward, at sequence lengths
// 128..2048 and prints the ratios: full attention's time grows ~4x per doubling
// of T once the T x T scores dominate, block-local's ~2x. Medians of 5 runs,
// float32. Figures only; it never passes or fails.
//   ./build/benchmarks/bench_block_attention [--block 64] [--d-model 128] [--heads 4] [--threads 2]
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "benchmarks/machine.h"
#include "nn/attention_mask.h"
#include "nn/multi_head_attention.h"

using namespace autograd;

namespace {

template <class F>
double median_ms(F f) {
    return 1e3 * benchmarks::median_seconds(f, 5);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t block = 64, d_model = 128, heads = 4;
    int threads = 2;
    CLI::App app{"Time full causal attention against block-local attention as the sequence grows."};
    app.add_option("--block", block, "L, positions per block")->check(CLI::Range(1, 4096));
    app.add_option("--d-model", d_model, "model width")->check(CLI::Range(1, 4096));
    app.add_option("--heads", heads, "attention heads (must divide --d-model)")->check(CLI::Range(1, 256));
    app.add_option("--threads", threads, "threads (BLAS)")->check(CLI::Range(1, 256));
    try {
        app.parse(argc, argv);
        if (d_model % heads != 0) throw CLI::ValidationError("--heads", "must divide --d-model");
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    set_num_threads(threads);
    nn::MultiHeadAttention mha(d_model, heads);
    Generator g(0);
    fmt::print("causal self-attention, batch 1, d_model {}, {} heads, block-local blocks of L = {}, {} threads (medians of 5, ms)\n",
               d_model, heads, block, threads);
    fmt::print("{:>6} | {:>10} {:>10} {:>7} | {:>10} {:>10} {:>7}\n", "T", "full fwd", "local fwd", "ratio", "full f+b",
               "local f+b", "ratio");
    for (std::int64_t T : {128, 256, 512, 1024, 2048}) {
        Tensor x = randn({1, T, d_model}, g).requires_grad_();
        Tensor mask = nn::subsequent_mask(T);
        auto full = [&] { return mha.self_attention(x, mask); };
        auto local = [&] { return mha.forward_block_local(x, block); };
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
        fmt::print("{:>6} | {:>10.2f} {:>10.2f} {:>6.1f}x | {:>10.2f} {:>10.2f} {:>6.1f}x\n", T, full_fwd, local_fwd,
                   full_fwd / local_fwd, full_both, local_both, full_both / local_both);
    }
    fmt::print("Expected: full attention costs O(T^2 d), block-local O(T L d) = O(T^2 d / K) with K = T / L blocks, so\n"
               "once the scores dominate the ratio doubles with T (K = {} at T = 2048); the projections, O(T d^2), are\n"
               "the same in both.\n",
               2048 / block);
    return 0;
}
