// Matrix products through Lectern against raw OpenBLAS, in float32, at the
// sizes the examples use. Prints GFLOP/s (medians of 9 runs) and the ratio
// Lectern / raw: the framework's overhead around one GEMM. Figures only; it
// never passes or fails.
//   ./build/benchmarks/bench_matmul
#include <cblas.h>

#include <vector>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "benchmarks/machine.h"
#include "lectern/run/flags/flags.h"

using namespace autograd;
using benchmarks::median_seconds;

namespace {

struct Case {
    const char* what;
    Shape a, b;
    bool transpose_b;
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "GEMM speed through Lectern's matmul against raw cblas_sgemm, on 1 and 2 threads (prints figures, never "
        "fails)."};
    if (int status = run::parse_flags(app, argc, argv, "bench_matmul", [] {}); status >= 0) return status;

    const std::vector<Case> cases = {
        {"Linear 512->2048 on 800 tokens", {80, 10, 512}, {2048, 512}, true},
        {"Linear 2048->512 on 800 tokens", {80, 10, 2048}, {512, 2048}, true},
        {"Linear 64->128 on 6400 tokens (ViT MLP)", {128, 50, 64}, {128, 64}, true},
        {"attention scores QK^T [640 x 10x64]", {80, 8, 10, 64}, {80, 8, 10, 64}, true},
        {"attention scores QK^T [512 x 50x16]", {128, 4, 50, 16}, {128, 4, 50, 16}, true},
    };
    fmt::print("{:<42} {:>7} {:>12} {:>12} {:>7}\n", "float32 matmul", "threads", "Lectern", "raw sgemm", "ratio");
    Generator g(0);
    for (int threads : {1, 2}) {
        set_num_threads(threads);
        for (const Case& c : cases) {
            Tensor a = randn(c.a, g), b = randn(c.b, g);
            const std::int64_t k = a.size(-1), n = c.transpose_b ? b.size(-2) : b.size(-1);
            const std::int64_t batch = b.dim() == 2 ? 1 : b.numel() / (b.size(-1) * b.size(-2));
            const std::int64_t m = a.numel() / k / batch;
            const double flops = 2.0 * static_cast<double>(batch * m * n * k);
            double lectern = median_seconds([&] { matmul(a, b, false, c.transpose_b); });
            Tensor out = Tensor::empty({batch, m, n});
            double raw = median_seconds([&] {
                for (std::int64_t i = 0; i < batch; ++i)
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, c.transpose_b ? CblasTrans : CblasNoTrans,
                                static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), 1.0f,
                                a.data<float>() + i * m * k, static_cast<int>(k), b.data<float>() + i * n * k,
                                static_cast<int>(c.transpose_b ? k : n), 0.0f, out.data<float>() + i * m * n,
                                static_cast<int>(n));
            });
            fmt::print("{:<42} {:>7} {:>8.1f} GF/s {:>8.1f} GF/s {:>7.2f}\n", c.what, threads, flops / lectern / 1e9,
                       flops / raw / 1e9, raw / lectern);
        }
    }
    return 0;
}
