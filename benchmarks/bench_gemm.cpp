// Lectern's portable GEMM (autograd/kernels/gemm_portable.h) beside OpenBLAS's sgemm, float32,
// on one thread, on the products a Linear layer makes in the models' training steps:
//   forward  y = x W^T      [rows, in] x [out, in]^T   (beta 1: y starts as the bias)
//   backward dx = dy W      [rows, out] x [out, in]
//            dW = dy^T x    [rows, out]^T x [rows, in]
// Prints GFLOP/s (2 m n k flops per product) of each (the median of --runs calls after a warm-up, the two called in turn)
// and the ratio portable / OpenBLAS. In the portable build (-Dblas=disabled) there is no OpenBLAS: the portable column
// alone. Figures only; it never passes or fails.
//   ./build/benchmarks/bench_gemm
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "benchmarks/machine.h"
#include "lectern/autograd/autograd.h"
#include "lectern/autograd/blas_core.h"
#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/kernels/gemm_portable.h"
#include "lectern/run/flags.h"

using namespace autograd;

namespace {

// One Linear layer of a model: its tokens per step and its weight's shape.
struct Layer {
    std::string what;
    std::int64_t rows, in, out;
};

// One product: C [m, n] = op(A) op(B) + beta C.
struct Product {
    const char* what;
    bool ta, tb;
    std::int64_t m, n, k;
    float beta;
};

std::vector<Product> products_of(const Layer& l) {
    return {{"y = x W^T", false, true, l.rows, l.out, l.in, 1.0f},
            {"dx = dy W", false, false, l.rows, l.in, l.out, 0.0f},
            {"dW = dy^T x", true, false, l.out, l.in, l.rows, 0.0f}};
}

// Seconds per call of f and of g, each the median of `runs` calls after a warm-up call of
// each, the two called in turn.
template <class F, class G>
std::pair<double, double> alternated_medians(F f, G g, int runs) {
    std::vector<double> tf, tg;
    auto seconds = [](auto call) {
        const auto start = std::chrono::steady_clock::now();
        call();
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    f();
    g();
    for (int r = 0; r < runs; ++r) {
        tf.push_back(seconds(f));
        tg.push_back(seconds(g));
    }
    std::sort(tf.begin(), tf.end());
    std::sort(tg.begin(), tg.end());
    return {tf[tf.size() / 2], tg[tg.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 7;
    CLI::App app{"The portable GEMM beside OpenBLAS's sgemm on one thread, on the models' Linear layers "
                 "(prints figures, never fails)."};
    app.add_option("--runs", runs, "timed calls per product; the median is printed")->check(CLI::Range(1, 1000));
    if (int status = run::parse_flags(app, argc, argv, "bench_gemm", [] {}); status >= 0) return status;
    set_num_threads(1);

    // The copy task (batch 80 x length 10 source tokens), its annotated preset, the ViT's default
    // preset (batch 128 x 50 tokens) and GPT-2 124M's training step (batch 4 x context 64).
    const std::vector<Layer> layers = {
        {"copy small QKV", 800, 64, 192},        {"copy small FFN 1", 800, 64, 256},
        {"copy small FFN 2", 800, 256, 64},      {"copy annotated QKV", 800, 512, 1536},
        {"copy annotated FFN 1", 800, 512, 2048}, {"copy annotated FFN 2", 800, 2048, 512},
        {"ViT QKV", 6400, 64, 192},              {"ViT MLP 1", 6400, 64, 128},
        {"ViT MLP 2", 6400, 128, 64},            {"GPT-2 attention out", 256, 768, 768},
        {"GPT-2 QKV", 256, 768, 2304},           {"GPT-2 MLP fc", 256, 768, 3072},
        {"GPT-2 MLP proj", 256, 3072, 768},      {"GPT-2 head", 256, 768, 50257},
    };
    const bool openblas = blas_is_openblas();
    fmt::print("float32 GEMM, 1 thread, median of {} calls; portable GEMM{}\n", runs,
               openblas ? fmt::format(" beside OpenBLAS {} (cblas_sgemm)", blas_core_name())
                        : " alone (this build has no OpenBLAS: -Dblas=disabled)");
    fmt::print("{:<22} {:<12} {:>20} {:>10}{}\n", "layer", "product", "m x n x k", "portable",
               openblas ? fmt::format(" {:>10} {:>7}", "OpenBLAS", "ratio") : "");
    Generator gen(0);
    std::vector<double> ratios;
    for (const Layer& layer : layers)
        for (const Product& p : products_of(layer)) {
            std::vector<float> a(static_cast<std::size_t>(p.m * p.k)), b(static_cast<std::size_t>(p.k * p.n));
            for (float& x : a) x = static_cast<float>(gen.normal());
            for (float& x : b) x = static_cast<float>(gen.normal());
            std::vector<float> c(static_cast<std::size_t>(p.m * p.n), 0.0f);
            const std::int64_t lda = p.ta ? p.m : p.k, ldb = p.tb ? p.k : p.n;
            const double flops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
            auto portable_call = [&] {
                detail::portable_gemm(p.ta, p.tb, p.m, p.n, p.k, a.data(), lda, b.data(), ldb, c.data(), p.n, p.beta);
            };
            auto blas_call = [&] {
                detail::gemm_call(p.ta, p.tb, p.m, p.n, p.k, a.data(), lda, b.data(), ldb, c.data(), p.n, p.beta);
            };
            const std::string dims = fmt::format("{} x {} x {}", p.m, p.n, p.k);
            if (!openblas) {
                const double portable = benchmarks::median_seconds(portable_call, runs);
                fmt::print("{:<22} {:<12} {:>20} {:>10.1f}\n", layer.what, p.what, dims, flops / portable / 1e9);
                continue;
            }
            // The two alternate, call by call, so that a slow moment of the machine falls on both.
            const auto [portable, blas] = alternated_medians(portable_call, blas_call, runs);
            ratios.push_back(blas / portable);
            fmt::print("{:<22} {:<12} {:>20} {:>10.1f} {:>10.1f} {:>7.2f}\n", layer.what, p.what, dims,
                       flops / portable / 1e9, flops / blas / 1e9, blas / portable);
        }
    if (!ratios.empty()) {
        std::sort(ratios.begin(), ratios.end());
        fmt::print("portable / OpenBLAS over the {} products: lowest {:.2f}, median {:.2f}, highest {:.2f}\n",
                   ratios.size(), ratios.front(), ratios[ratios.size() / 2], ratios.back());
    }
    return 0;
}
