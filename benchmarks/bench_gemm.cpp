// Lectern's portable GEMM (autograd/kernels/gemm_portable.h) beside OpenBLAS's sgemm, float32,
// on one thread, on the products a Linear layer makes in the models' training steps:
//   forward  y = x W^T      [rows, in] x [out, in]^T   (beta 1: y starts as the bias)
//   backward dx = dy W      [rows, out] x [out, in]
//            dW = dy^T x    [rows, out]^T x [rows, in]
// Prints GFLOP/s (2 m n k flops per product) of each, from the median of --runs calls of this
// thread's CPU time, the two called in turn, and the ratio portable / OpenBLAS. In the portable
// build (-Dblas=disabled) there is no OpenBLAS: the portable column alone. Figures only; it
// never passes or fails.
//   ./build/benchmarks/bench_gemm
#include <algorithm>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/autograd/blas_core.h"
#include "lectern/autograd/kernels/gemm.h"
#include "lectern/autograd/kernels/gemm_portable.h"
#include "lectern/run/flags/flags.h"

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

// Seconds of this thread's CPU time per call of each of `calls`, each the median of `runs`
// calls after a warm-up call, the calls made in turn so that a slow moment of the machine falls
// on all of them. CPU time rather than the wall clock: on a shared machine the time the thread
// waits for a core is not the kernel's (the caches it shares still are).
std::vector<double> median_cpu_seconds(const std::vector<std::function<void()>>& calls, int runs) {
    auto cpu_seconds = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
    };
    std::vector<std::vector<double>> times(calls.size());
    for (const auto& call : calls) call();
    for (int r = 0; r < runs; ++r)
        for (std::size_t i = 0; i < calls.size(); ++i) {
            const double start = cpu_seconds();
            calls[i]();
            times[i].push_back(cpu_seconds() - start);
        }
    std::vector<double> medians;
    for (std::vector<double>& t : times) {
        std::sort(t.begin(), t.end());
        medians.push_back(t[t.size() / 2]);
    }
    return medians;
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 7;
    CLI::App app{
        "The portable GEMM beside OpenBLAS's sgemm on one thread, on the models' Linear layers "
        "(prints figures, never fails)."};
    app.add_option("--runs", runs, "timed calls per product; the median is printed")->check(CLI::Range(1, 1000));
    if (int status = run::parse_flags(app, argc, argv, "bench_gemm", [] {}); status >= 0) return status;
    set_num_threads(1);

    // The copy task (batch 80 x length 10 source tokens), its annotated preset, the ViT's default
    // preset (batch 128 x 50 tokens) and GPT-2 124M's training step (batch 4 x context 64).
    const std::vector<Layer> layers = {
        {"copy small QKV", 800, 64, 192},
        {"copy small FFN 1", 800, 64, 256},
        {"copy small FFN 2", 800, 256, 64},
        {"copy annotated QKV", 800, 512, 1536},
        {"copy annotated FFN 1", 800, 512, 2048},
        {"copy annotated FFN 2", 800, 2048, 512},
        {"ViT QKV", 6400, 64, 192},
        {"ViT MLP 1", 6400, 64, 128},
        {"ViT MLP 2", 6400, 128, 64},
        {"GPT-2 attention out", 256, 768, 768},
        {"GPT-2 QKV", 256, 768, 2304},
        {"GPT-2 MLP fc", 256, 768, 3072},
        {"GPT-2 MLP proj", 256, 3072, 768},
        {"GPT-2 head", 256, 768, 50257},
    };
    const bool openblas = blas_is_openblas();
    fmt::print("float32 GEMM, 1 thread, median CPU time of {} calls; portable GEMM{}\n", runs,
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
                const double portable = median_cpu_seconds({portable_call}, runs)[0];
                fmt::print("{:<22} {:<12} {:>20} {:>10.1f}\n", layer.what, p.what, dims, flops / portable / 1e9);
                continue;
            }
            const std::vector<double> seconds = median_cpu_seconds({portable_call, blas_call}, runs);
            const double portable = seconds[0], blas = seconds[1];
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
