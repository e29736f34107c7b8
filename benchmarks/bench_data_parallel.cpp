// Data parallelism's price on this machine: training steps of the copy task's
// small Transformer and of the ViT, timed as one process of N threads or as N
// processes (mpirun) of fewer threads each, with the share of a step spent
// summing the gradients over the processes. Prints figures; never fails on time.
//   ./build/benchmarks/bench_data_parallel                        one process, every core
//   mpirun -np 2 ./build/benchmarks/bench_data_parallel --threads 1   two processes of one thread
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/data/copy_task.h"
#include "lectern/distributed/data_parallel.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adam.h"

using namespace autograd;

namespace {

struct Timing {
    double step, sync;  // median seconds of a step, and of its gradient sum
};

// `steps` timed steps after 3 warm-up ones; the medians over them, agreed by all
// processes (rank 0's steps end when the slowest process's sum does).
template <class Step>
Timing time_steps(distributed::DataParallel& dp, int steps, Step step) {
    std::vector<double> total, sync;
    for (int i = 0; i < steps + 3; ++i) {
        const double before = dp.sync_seconds();
        auto start = std::chrono::steady_clock::now();
        step();
        if (i < 3) continue;
        total.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        sync.push_back(dp.sync_seconds() - before);
    }
    std::sort(total.begin(), total.end());
    std::sort(sync.begin(), sync.end());
    return {total[total.size() / 2], sync[sync.size() / 2]};
}

void report(const char* name, const Timing& t, std::int64_t items, const char* unit, int ranks, int threads) {
    fmt::print(
        "{:<28} {} process{} x {} thread{}: {:7.2f} ms a step, {:8.0f} {}/s, summing gradients {:5.2f} ms "
        "({:.1f}% of a step)\n",
        name, ranks, ranks == 1 ? "" : "es", threads, threads == 1 ? "" : "s", 1e3 * t.step,
        static_cast<double>(items) / t.step, unit, 1e3 * t.sync, 100 * t.sync / t.step);
}

}  // namespace

int main(int argc, char** argv) {
    distributed::Communicator& comm = distributed::Communicator::world();
    CLI::App app{"Training steps as one process or as several (mpirun), with the cost of summing gradients."};
    int threads = autograd::default_num_threads(), steps = 20;
    app.add_option("--threads", threads, "threads of each process")->check(CLI::Range(1, 4096));
    app.add_option("--steps", steps, "timed steps of each workload")->check(CLI::Range(1, 100000));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return comm.is_root() ? app.exit(e) : 2;
    }
    set_num_threads(threads);

    {  // The copy task's default model (examples/copy_task.cpp): batch 64, length 10, Adam.
        models::TransformerConfig c;
        c.n_layers = 2, c.d_model = 64, c.d_ff = 256, c.heads = 4, c.dropout = 0, c.seed = 1;
        auto model = models::make_transformer(c);
        distributed::DataParallel dp(*model);
        nn::optim::Adam opt(model->parameters(), {.lr = 1e-4, .beta2 = 0.98, .eps = 1e-9});
        nn::LabelSmoothingLoss criterion(11, data::kCopyPad, 0.0);
        Generator gen(1);
        const auto [first, last] = dp.share(64);
        Timing t = time_steps(dp, steps, [&] {
            data::CopyBatch b = data::copy_task_rows(data::copy_task_batch(11, 10, 64, gen), first, last);
            opt.zero_grad();
            Tensor out = model->forward(b.src, b.tgt_in, nn::padding_mask(b.src, data::kCopyPad),
                                        models::target_mask(b.tgt_in, data::kCopyPad));
            (criterion(model->generator->forward(out), b.tgt_out) * dp.weight(b.ntokens)).backward();
            dp.sync_gradients();
            opt.step();
        });
        if (comm.is_root()) report("copy task (small)", t, 64 * 10 * 2, "tok", comm.size(), threads);
    }
    {  // The ViT's default (examples/vit_fashion_mnist.cpp): patch 4, batch 128, AdamW.
        models::ViTConfig c;
        c.seed = 1;
        models::ViT model(c);
        distributed::DataParallel dp(model);
        nn::optim::Adam opt(model.parameters(), {.lr = 1e-4, .weight_decay = 0.05});
        Generator gen(2);
        const auto [first, last] = dp.share(128);
        Tensor images = randn({last - first, 1, 28, 28}, gen);
        Tensor labels = Tensor::empty({last - first}, Dtype::int64);
        for (std::int64_t i = 0; i < labels.numel(); ++i) labels.data<std::int64_t>()[i] = gen.randint(10);
        Timing t = time_steps(dp, steps, [&] {
            opt.zero_grad();
            (cross_entropy(model.forward(images), labels) * dp.weight(labels.numel())).backward();
            dp.sync_gradients();
            opt.step();
        });
        if (comm.is_root()) report("ViT (patch 4)", t, 128, "img", comm.size(), threads);
    }
    return 0;
}
