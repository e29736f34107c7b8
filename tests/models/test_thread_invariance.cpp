// A model's loss and every gradient are the same to the bit on 1, 2, 3 and 8 threads: the
// kernels split their loops by output elements, BLAS products by parts of C that begin on
// multiples of kGemmRowAlign rows, and the sums they split (dW, db, a layer norm's dgamma and
// dbeta) into parts set by the shapes alone. So a run gives the same numbers on a laptop of any
// core count, under OpenBLAS's Haswell kernels (tests/models/meson.build names them; its
// AVX-512 kernels take another path for small products, docs/design.md).

#include <cstring>
#include <functional>
#include <vector>

#include "check.h"
#include "lectern/autograd/thread_pool.h"
#include "lectern/autograd/threads.h"
#include "lectern/models/gpt.h"
#include "lectern/models/text_classifier.h"
#include "lectern/models/transformer.h"
#include "lectern/models/vit.h"
#include "lectern/nn/attention_mask.h"

using namespace autograd;

namespace {

// Token ids in [1, vocab), the last `pad` of every row 0 (padding).
Tensor ids(std::int64_t B, std::int64_t T, std::int64_t vocab, std::int64_t pad, std::uint64_t seed) {
    Generator g(seed);
    Tensor x = zeros({B, T}, Dtype::int64);
    for (std::int64_t b = 0; b < B; ++b)
        for (std::int64_t t = 0; t + pad < T; ++t) x.data<std::int64_t>()[b * T + t] = 1 + g.randint(vocab - 1);
    return x;
}

// The float32 values of the loss and of every gradient after one backward.
std::vector<std::vector<float>> loss_and_gradients(nn::Module& model, const std::function<Tensor()>& loss_of) {
    model.zero_grad();
    Tensor loss = loss_of();
    loss.backward();
    std::vector<std::vector<float>> out{{static_cast<float>(loss.item())}};
    for (const auto& [name, p] : model.named_parameters()) {
        const float* g = p.grad().data<float>();
        out.emplace_back(g, g + p.numel());
    }
    return out;
}

// The pool's size set directly: set_num_threads stops at this machine's cores, and the
// threads of a larger laptop are what this checks.
void check_same_bits_on_1_2_3_8_threads(nn::Module& model, const std::function<Tensor()>& loss_of) {
    const int before = num_threads();
    autograd::detail::set_pool_threads(1);
    const auto one = loss_and_gradients(model, loss_of);
    const auto names = model.named_parameters();
    for (int threads : {2, 3, 8}) {
        autograd::detail::set_pool_threads(threads);
        const auto other = loss_and_gradients(model, loss_of);
        for (std::size_t i = 0; i < one.size(); ++i) {
            INFO("threads " << threads << ", " << (i == 0 ? std::string("the loss") : names[i - 1].first));
            CHECK(std::memcmp(one[i].data(), other[i].data(), one[i].size() * sizeof(float)) == 0);
        }
    }
    autograd::detail::set_pool_threads(before);
}

}  // namespace

TEST_CASE("the text classifier's loss and gradients are the same to the bit on 1, 2, 3 and 8 threads", "[threads]") {
    models::TextClassifierConfig c;
    c.vocab = 300, c.max_len = 64, c.d_model = 64, c.n_layers = 2, c.heads = 4, c.d_ff = 256, c.classes = 7, c.seed = 3;
    models::TextClassifier model(c);
    model.eval();
    const Tensor x = ids(16, 40, c.vocab, 9, 4), y = tensor(std::vector<double>(16, 2), Dtype::int64);
    check_same_bits_on_1_2_3_8_threads(model, [&] { return cross_entropy(model.forward(x), y); });
}

TEST_CASE("the Transformer's loss and gradients are the same to the bit on 1, 2, 3 and 8 threads", "[threads]") {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = 50, c.n_layers = 2, c.d_model = 64, c.d_ff = 256, c.heads = 4, c.seed = 5;
    auto model = models::make_transformer(c);
    model->eval();
    const Tensor src = ids(16, 30, 50, 5, 6), tgt = ids(16, 30, 50, 3, 7);
    check_same_bits_on_1_2_3_8_threads(*model, [&] {
        Tensor out = model->forward(src, tgt, nn::padding_mask(src, 0), models::target_mask(tgt, 0));
        return cross_entropy(model->generator->forward(out), tgt, 0);
    });
}

TEST_CASE("the GPT's loss and gradients are the same to the bit on 1, 2, 3 and 8 threads", "[threads]") {
    models::GPTConfig c;
    c.vocab = 70, c.context = 64, c.d_model = 64, c.n_layers = 2, c.heads = 4, c.d_ff = 256, c.seed = 8;
    auto model = models::make_gpt(c);
    model->eval();
    SECTION("a batch of full contexts") {
        const Tensor text = ids(8, 64, 70, 0, 9);
        check_same_bits_on_1_2_3_8_threads(*model, [&] { return cross_entropy(model->forward(text), text); });
    }
    SECTION("one short sequence: fewer rows than a part of a product") {
        const Tensor text = ids(1, 40, 70, 0, 10);
        check_same_bits_on_1_2_3_8_threads(*model, [&] { return cross_entropy(model->forward(text), text); });
    }
}

TEST_CASE("the ViT's loss and gradients are the same to the bit on 1, 2, 3 and 8 threads", "[threads]") {
    models::ViTConfig c;
    c.depth = 2, c.seed = 11;
    models::ViT model(c);
    model.eval();
    Generator gen(12);
    const Tensor images = randn({16, 1, 28, 28}, gen);
    const Tensor labels = tensor(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5}, Dtype::int64);
    check_same_bits_on_1_2_3_8_threads(model, [&] { return cross_entropy(model.forward(images), labels); });
}
