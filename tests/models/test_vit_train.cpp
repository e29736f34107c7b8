// A tiny ViT learns which quadrant of an image is bright.
#include "check.h"
#include "lectern/models/vit.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/optim/adamw.h"

using namespace autograd;

namespace {
// 8x8 images of noise with one bright 4x4 quadrant; the label is the quadrant.
void quadrant_batch(std::int64_t n, Generator& g, Tensor& images, Tensor& labels) {
    images = randn({n, 1, 8, 8}, g) * 0.3;
    labels = Tensor::empty({n}, Dtype::int64);
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t q = g.randint(4);
        labels.data<std::int64_t>()[i] = q;
        for (std::int64_t r = 0; r < 4; ++r)
            for (std::int64_t c = 0; c < 4; ++c)
                images.set({i, 0, (q / 2) * 4 + r, (q % 2) * 4 + c},
                           1.0 + images.at({i, 0, (q / 2) * 4 + r, (q % 2) * 4 + c}));
    }
}
}  // namespace

TEST_CASE("a tiny ViT learns a synthetic quadrant task to high accuracy", "[train]") {
    set_num_threads(1);
    models::ViTConfig c;
    c.image_size = 8, c.patch = 4, c.d_model = 16, c.depth = 1, c.heads = 2, c.mlp = 32, c.classes = 4, c.seed = 1;
    models::ViT vit(c);
    nn::optim::AdamW opt(vit.parameters(), {.lr = 3e-3, .weight_decay = 0.01});
    Generator g(5);
    Tensor x, y;
    for (int step = 0; step < 150; ++step) {
        quadrant_batch(32, g, x, y);
        opt.zero_grad();
        cross_entropy(vit.forward(x), y).backward();
        opt.step();
    }
    quadrant_batch(500, g, x, y);
    NoGradGuard no_grad;
    vit.eval();
    Tensor pred = argmax(vit.forward(x), -1);
    std::int64_t correct = 0;
    for (std::int64_t i = 0; i < 500; ++i) correct += pred.at({i}) == y.at({i});
    INFO(correct << " of 500 correct");
    CHECK(correct >= 475);  // 95%
}
