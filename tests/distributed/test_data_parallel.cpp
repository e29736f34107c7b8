// Data parallelism on Open MPI, run under `mpirun -np 2` (and alone): ten Adam
// steps of the copy task's Transformer, the ViT and the character GPT, in
// float64 with dropout 0, each rank computing half of every batch, equal the
// same steps of one process on the whole batch (relative difference at most
// 1e-12), and every rank holds the same parameters, bit for bit, after every
// step. The GPT's batches ignore some targets, unevenly between the halves, so
// a mean of per-rank means would fail: losses are weighted by counted tokens.
//   test_data_parallel                      every model
//   test_data_parallel --die-rank 1 --die-step 3   that rank kills itself there
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/distributed/data_parallel.h"
#include "lectern/models/gpt.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/optim/adam.h"

using namespace autograd;

namespace {

constexpr int kSteps = 10;
int g_die_rank = -1, g_die_step = -1;

// One model's batch of B rows: the mean loss over the rows [begin, end) and how many items it counted.
using Loss =
    std::function<std::pair<Tensor, std::int64_t>(nn::Module&, int step, std::int64_t begin, std::int64_t end)>;

std::vector<double> flat(const nn::Module& m) {
    std::vector<double> out;
    for (const auto& [name, p] : m.named_parameters()) {
        auto v = p.to_vector();
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

// Whole numbers in [lo, hi) as int64.
Tensor randint(std::int64_t lo, std::int64_t hi, const Shape& shape, Generator& gen) {
    Tensor t = Tensor::empty(shape, Dtype::int64);
    for (std::int64_t i = 0; i < t.numel(); ++i) t.data<std::int64_t>()[i] = lo + gen.randint(hi - lo);
    return t;
}

// Trains `distributed` on this rank's share and `alone` on the whole batch; fails on any difference.
bool check(const std::string& name, nn::Module& distributed_model, nn::Module& alone, std::int64_t B,
           const Loss& loss) {
    distributed::Communicator& comm = distributed::Communicator::world();
    distributed::DataParallel dp(distributed_model);
    nn::optim::Adam opt_d(distributed_model.parameters(), {.lr = 1e-3}), opt_a(alone.parameters(), {.lr = 1e-3});
    auto [begin, end] = dp.share(B);
    for (int step = 1; step <= kSteps; ++step) {
        if (comm.rank() == g_die_rank && step == g_die_step) std::raise(SIGKILL);
        opt_d.zero_grad();
        auto [mine, count] = loss(distributed_model, step, begin, end);
        (mine * dp.weight(count)).backward();
        dp.sync_gradients();
        opt_d.step();
        opt_a.zero_grad();
        loss(alone, step, 0, B).first.backward();
        opt_a.step();
        // Every rank's parameters, bit for bit: rank 0's are broadcast and compared.
        std::vector<double> here = flat(distributed_model), root = here;
        comm.broadcast(root.data(), root.size() * sizeof(double));
        int differs = std::memcmp(here.data(), root.data(), here.size() * sizeof(double)) != 0;
        if (comm.max(differs)) {
            std::printf("FAIL: %s: after step %d the ranks' parameters differ\n", name.c_str(), step);
            return false;
        }
    }
    std::vector<double> d = flat(distributed_model), a = flat(alone);
    // Relative to the parameters' size, |d - a| / |a| over all of them: an element
    // near zero (a bias after a few steps) cannot make a last-bit difference look large.
    double diff = 0, size = 0;
    for (std::size_t i = 0; i < d.size(); ++i) diff += (d[i] - a[i]) * (d[i] - a[i]), size += a[i] * a[i];
    const double worst = std::sqrt(diff / size);
    if (comm.is_root())
        std::printf(
            "%s: %s, %d Adam steps on %d rank%s: largest relative difference from one process %.2e; ranks equal "
            "bit for bit after every step\n",
            worst <= 1e-12 ? "ok" : "FAIL", name.c_str(), kSteps, comm.size(), comm.size() == 1 ? "" : "s", worst);
    return worst <= 1e-12;
}

template <class Make>
bool check_model(const std::string& name, Make make, std::int64_t B, const Loss& loss) {
    auto a = make(), b = make();
    a->to(Dtype::float64);
    b->to(Dtype::float64);
    return check(name, *a, *b, B, loss);
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "--die-rank") g_die_rank = std::atoi(argv[i + 1]);
        if (std::string(argv[i]) == "--die-step") g_die_step = std::atoi(argv[i + 1]);
    }
    set_num_threads(1);
    bool ok = true;

    // The copy task's encoder-decoder: batches of 6 sequences of length 7 over 11 symbols.
    models::TransformerConfig tc;
    tc.n_layers = 2, tc.d_model = 16, tc.d_ff = 32, tc.heads = 2, tc.dropout = 0, tc.seed = 3;
    ok &= check_model(
        "copy-task Transformer", [&] { return models::make_transformer(tc); }, 6,
        [](nn::Module& m, int step, std::int64_t begin, std::int64_t end) {
            auto& model = static_cast<models::Transformer&>(m);
            Generator gen(100 + step);
            Tensor src = randint(1, 11, {6, 7}, gen);
            src = narrow(src, 0, begin, end - begin);
            Tensor tgt_in = narrow(src, 1, 0, 6), tgt_out = narrow(src, 1, 1, 6);
            Tensor out = model.forward(src, tgt_in, nn::padding_mask(src, 0), models::target_mask(tgt_in, 0));
            Tensor logits = model.generator->forward(out);
            return std::pair{cross_entropy(logits, tgt_out), tgt_out.numel()};
        });

    // The ViT: batches of 5 images of 8x8 in 3 classes (an odd batch: shares of 3 and 2).
    models::ViTConfig vc;
    vc.image_size = 8, vc.patch = 4, vc.d_model = 8, vc.depth = 2, vc.heads = 2, vc.mlp = 16, vc.classes = 3,
    vc.seed = 5;
    ok &= check_model(
        "ViT", [&] { return std::make_unique<models::ViT>(vc); }, 5,
        [](nn::Module& m, int step, std::int64_t begin, std::int64_t end) {
            auto& model = static_cast<models::ViT&>(m);
            Generator gen(200 + step);
            Tensor images = narrow(rand({5, 1, 8, 8}, gen, Dtype::float64), 0, begin, end - begin);
            Tensor labels = narrow(randint(0, 3, {5}, gen), 0, begin, end - begin);
            return std::pair{cross_entropy(model.forward(images), labels), labels.numel()};
        });

    // The character GPT: 4 windows of 8; the last window's targets are all but one ignored.
    models::GPTConfig gc;
    gc.vocab = 13, gc.context = 8, gc.d_model = 16, gc.n_layers = 2, gc.heads = 2, gc.d_ff = 32, gc.seed = 7;
    ok &= check_model(
        "character GPT", [&] { return models::make_gpt(gc); }, 4,
        [](nn::Module& m, int step, std::int64_t begin, std::int64_t end) {
            auto& model = static_cast<models::GPT&>(m);
            Generator gen(300 + step);
            Tensor ids = randint(0, 13, {4, 9}, gen);
            Tensor targets = narrow(ids, 1, 1, 8).clone();
            for (std::int64_t t = 1; t < 8; ++t) targets.data<std::int64_t>()[3 * 8 + t] = -100;
            Tensor x = narrow(narrow(ids, 1, 0, 8), 0, begin, end - begin);
            Tensor y = narrow(targets, 0, begin, end - begin);
            std::int64_t counted = 0;
            for (std::int64_t i = 0; i < y.numel(); ++i) counted += y.data<std::int64_t>()[i] != -100;
            return std::pair{cross_entropy(model.forward(x), y), counted};
        });
    return ok ? 0 : 1;
}
