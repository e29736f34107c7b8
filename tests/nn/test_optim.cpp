// Optimizers against values worked out by hand; a regression that converges; clipping.
#include <cmath>
#include <memory>

#include "check.h"
#include "lectern/autograd/reference/adam.h"
#include "lectern/nn/clip_grad.h"
#include "lectern/nn/linear.h"
#include "lectern/nn/optim/adam.h"
#include "lectern/nn/optim/adamw.h"
#include "lectern/nn/optim/param_groups.h"
#include "lectern/nn/optim/sgd.h"

using namespace autograd;

namespace {
// A parameter p = [1, -2] with gradient g = [0.5, 1] set by hand.
Tensor param_with_grad() {
    Tensor p = tensor({1, -2}, Dtype::float64).requires_grad_();
    p.set_grad(tensor({0.5, 1}, Dtype::float64));
    return p;
}
}  // namespace

TEST_CASE("SGD steps by hand: plain, momentum, Nesterov, weight decay", "[optim]") {
    Tensor p = param_with_grad();
    nn::optim::SGD plain({p}, {.lr = 0.1});
    plain.step();
    require_values(p, {1 - 0.05, -2 - 0.1}, 1e-12);

    // Momentum 0.9: b1 = g, p1 = p0 - lr b1; with the same g again, b2 = 0.9 g + g = 1.9 g.
    Tensor q = param_with_grad();
    nn::optim::SGD mom({q}, {.lr = 0.1, .momentum = 0.9});
    mom.step();
    mom.step();
    require_values(q, {1 - 0.1 * 0.5 * 2.9, -2 - 0.1 * 1 * 2.9}, 1e-12);

    // Nesterov: d = g + mu b, first step b = g: p -= lr (1 + mu) g.
    Tensor r = param_with_grad();
    nn::optim::SGD nest({r}, {.lr = 0.1, .momentum = 0.9, .nesterov = true});
    nest.step();
    require_values(r, {1 - 0.1 * 1.9 * 0.5, -2 - 0.1 * 1.9 * 1}, 1e-12);

    // Weight decay 0.1 adds 0.1 p: d = [0.5 + 0.1, 1 - 0.2].
    Tensor s = param_with_grad();
    nn::optim::SGD wd({s}, {.lr = 0.1, .weight_decay = 0.1});
    wd.step();
    require_values(s, {1 - 0.06, -2 - 0.08}, 1e-12);
}

TEST_CASE("Adam's first two steps by hand, with bias correction", "[optim]") {
    Tensor p = param_with_grad();
    nn::optim::Adam adam({p}, {.lr = 0.1});
    adam.step();
    // Step 1: m = 0.1 g, v = 0.001 g^2; m_hat = g, v_hat = g^2: p -= lr g / (|g| + eps) = lr sign(g).
    require_values(p, {1 - 0.1, -2 - 0.1}, 1e-7);
    p.set_grad(tensor({-0.5, 1}, Dtype::float64));
    adam.step();
    // Step 2, element 0: m = 0.9 (0.05) + 0.1 (-0.5) = -0.005, v = 0.999 (0.00025) + 0.001 (0.25) = 0.00049975
    // m_hat = -0.005 / 0.19 = -0.0263158, v_hat = 0.00049975 / 0.001999 = 0.25, sqrt = 0.5
    // p = 0.9 - 0.1 (-0.0263158 / 0.5) = 0.9052632. Element 1 keeps g = 1: p = -2.1 - 0.1.
    require_values(p, {0.9 + 0.1 * (0.005 / 0.19) / std::sqrt(0.00049975 / 0.001999), -2.2}, 1e-7);
    CHECK(adam.step_count() == 2);
}

TEST_CASE("Adam adds L2 to the gradient, AdamW decays the weight apart", "[optim]") {
    Tensor a = param_with_grad(), b = param_with_grad();
    nn::optim::Adam adam({a}, {.lr = 0.1, .weight_decay = 0.5});
    nn::optim::AdamW adamw({b}, {.lr = 0.1, .weight_decay = 0.5});
    adam.step();
    adamw.step();
    // Adam: g' = g + 0.5 p = [1, 0]: step 1 moves by lr sign(g') = [-0.1, 0].
    require_values(a, {0.9, -2}, 1e-6);
    // AdamW: p *= 1 - lr wd = 0.95, then p -= lr sign(g).
    require_values(b, {0.95 - 0.1, -1.9 - 0.1}, 1e-7);
}

TEST_CASE("each optimizer fits a small linear regression", "[optim]") {
    Generator g(1);
    Tensor X = randn({64, 3}, g, Dtype::float64);
    Tensor y = matmul(X, tensor({2, -1, 0.5}, {3, 1}, Dtype::float64)) + 0.3;
    auto fit = [&](auto make) {
        Tensor w = zeros({3, 1}, Dtype::float64).requires_grad_();
        Tensor b = zeros({1}, Dtype::float64).requires_grad_();
        auto opt = make(std::vector{w, b});
        double loss = 0;
        for (int i = 0; i < 500; ++i) {
            opt.zero_grad();
            Tensor l = mean(pow(matmul(X, w) + b - y, 2.0));
            l.backward();
            opt.step();
            loss = l.item();
        }
        return loss;
    };
    CHECK(fit([](auto ps) { return nn::optim::SGD(ps, {.lr = 0.1, .momentum = 0.9}); }) < 1e-6);
    CHECK(fit([](auto ps) { return nn::optim::Adam(ps, {.lr = 0.05}); }) < 1e-6);
    CHECK(fit([](auto ps) { return nn::optim::AdamW(ps, {.lr = 0.05, .weight_decay = 1e-4}); }) < 1e-3);
}

TEST_CASE("clip_grad_norm_ scales gradients above max_norm and returns the norm", "[optim]") {
    Tensor a = tensor({0, 0}, Dtype::float64).requires_grad_(), b = tensor({0}, Dtype::float64).requires_grad_();
    a.set_grad(tensor({3, 0}, Dtype::float64));
    b.set_grad(tensor({4}, Dtype::float64));
    CHECK(nn::clip_grad_norm_({a, b}, 1.0) == Approx(5));
    require_values(a.grad(), {0.6, 0}, 1e-6);
    require_values(b.grad(), {0.8}, 1e-6);
    CHECK(nn::clip_grad_norm_({a, b}, 10.0) == Approx(1).epsilon(1e-5));
    require_values(b.grad(), {0.8}, 1e-6);  // below max_norm: untouched
}

TEST_CASE("clip_grad_value_ clamps each gradient element to [-c, c]", "[optim]") {
    Tensor p = tensor({1, 2, 3}, Dtype::float64).requires_grad_();
    p.set_grad(tensor({-2, 0.3, 5}, Dtype::float64));
    Tensor no_grad = tensor({1}, Dtype::float64).requires_grad_();
    nn::clip_grad_value_({p, no_grad}, 0.5);
    require_values(p.grad(), {-0.5, 0.3, 0.5});
    CHECK_FALSE(no_grad.grad().defined());
    nn::clip_grad_value_({p}, 0);
    require_values(p.grad(), {0, 0, 0});
    CHECK_THROWS_WITH(nn::clip_grad_value_({p}, -1), "clip_grad_value_: clip_value -1 must be >= 0");
}

TEST_CASE("an optimizer refuses a frozen parameter and names it", "[errors]") {
    nn::Linear layer(2, 3);
    layer.bias.requires_grad_(false);  // frozen
    CHECK_THROWS_WITH(nn::optim::Adam(layer.named_parameters()),
                      "Optimizer: parameter 'bias' [3] of group 0 does not require grad (frozen?); pass only the "
                      "parameters to train");
    CHECK_THROWS_WITH(nn::optim::SGD(layer.parameters()),
                      "Optimizer: parameter 1 [3] of group 0 does not require grad (frozen?); pass only the "
                      "parameters to train");
    CHECK_THROWS_WITH(nn::optim::AdamW(nn::optim::weight_decay_groups(layer, 0.1)),
                      Catch::Contains("parameter 'bias' [3] of group 1"));
}

TEST_CASE("optimizers reject invalid options", "[errors]") {
    Tensor p = param_with_grad();
    CHECK_THROWS_AS(nn::optim::SGD({p}, {.lr = -1}), ValueError);
    CHECK_THROWS_AS(nn::optim::Adam({p}, {.beta1 = 1.0}), ValueError);
    CHECK_THROWS_AS(nn::optim::SGD({p}, {.lr = 0.1, .nesterov = true}), ValueError);
    CHECK_THROWS_AS(nn::optim::Adam({zeros({2})}), ValueError);  // does not require grad
    CHECK_THROWS_AS(nn::clip_grad_norm_({p}, 0), ValueError);
}

TEST_CASE("restoring optimizer state checks names, shapes and dtypes first", "[errors]") {
    Tensor p = param_with_grad();
    nn::optim::Adam opt({p});
    opt.step();
    auto before = opt.named_state();
    CHECK_THROWS_AS(opt.load_state({{"exp_avg.0x", zeros({2}, Dtype::float64)}}, 1), ValueError);
    CHECK_THROWS_AS(opt.load_state({{"exp_avg.1", zeros({2}, Dtype::float64)}}, 1), ValueError);
    CHECK_THROWS_AS(opt.load_state({{"exp_avg.0", zeros({2})}}, 1), DtypeError);
    CHECK_THROWS_AS(opt.load_state({{"exp_avg.0", zeros({3}, Dtype::float64)}}, 1), ShapeError);
    CHECK(opt.step_count() == 1);
    CHECK(opt.named_state()[0].second.to_vector() == before[0].second.to_vector());
}

TEST_CASE("Adam counts steps per parameter: one first updated at step 3 is corrected as at its step 1 (PyTorch)",
          "[optim]") {
    for (bool decoupled : {false, true}) {
        Tensor a = param_with_grad();
        Tensor late = tensor({1, -2}, Dtype::float64).requires_grad_();
        std::unique_ptr<nn::optim::Optimizer> opt;
        if (decoupled)
            opt = std::make_unique<nn::optim::AdamW>(std::vector<Tensor>{a, late},
                                                     nn::optim::AdamWOptions{.lr = 0.1, .weight_decay = 0});
        else opt = std::make_unique<nn::optim::Adam>(std::vector<Tensor>{a, late}, nn::optim::AdamOptions{.lr = 0.1});
        opt->step();
        opt->step();
        late.set_grad(tensor({0.5, 1}, Dtype::float64));
        opt->step();
        // Its step 1: m_hat = g, v_hat = g^2, so it moves by lr sign(g), as a's first step did. With the
        // optimizer's count (t = 3) it would move 0.1 * 0.369 / 0.578 = 0.064 instead.
        require_values(late, {1 - 0.1, -2 - 0.1}, 1e-7);
        CHECK(opt->step_count() == 3);
        CHECK(opt->param_step_count(0) == 3);
        CHECK(opt->param_step_count(1) == 1);
    }
}

TEST_CASE("Adam and AdamW over many parameters at once equal each parameter stepped alone, on any threads", "[optim]") {
    // The step numbers every element of every parameter one after another and splits that range
    // over the threads: parameters of many sizes put the split inside some and between others.
    const std::vector<std::int64_t> sizes{1, 7, 20000, 3, 50000, 16};
    auto make = [&](std::uint64_t seed) {
        Generator g(seed);
        std::vector<Tensor> ps;
        for (std::int64_t n : sizes) {
            Tensor p = randn({n}, g).requires_grad_();
            p.set_grad(randn({n}, g));
            ps.push_back(p);
        }
        return ps;
    };
    for (bool decoupled : {false, true}) {
        nn::optim::AdamOptions o{.lr = 0.01, .weight_decay = 0.1};
        auto optimizer = [&](std::vector<Tensor> ps) -> std::unique_ptr<nn::optim::Optimizer> {
            if (decoupled) return std::make_unique<nn::optim::AdamW>(ps, o);
            return std::make_unique<nn::optim::Adam>(ps, o);
        };
        std::vector<Tensor> together = make(1), alone = make(1);
        set_num_threads(2);
        auto all = optimizer(together);
        std::vector<std::unique_ptr<nn::optim::Optimizer>> each;
        for (const Tensor& p : alone) each.push_back(optimizer({p}));
        for (int step = 0; step < 2; ++step) {
            all->step();
            set_num_threads(1);
            for (auto& e : each) e->step();
            set_num_threads(2);
        }
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            INFO("parameter " << i << (decoupled ? " (AdamW)" : " (Adam)"));
            CHECK(together[i].to_vector() == alone[i].to_vector());
        }
    }
}

// The float32 Adam (nn/optim/adam.cpp's adam_elements, bias corrections folded into lr_t and
// sqrt(v_hat)) against autograd::reference::adam_update in float32, element by element, over
// three steps, on 1 and 2 threads: within a few float32 roundings of each value.
TEST_CASE("Adam and AdamW in float32 equal reference::adam_update", "[optim]") {
    const std::int64_t n = 20011;  // enough to split over two threads, with a tail
    for (bool decoupled : {false, true})
        for (int threads : {1, 2}) {
            INFO((decoupled ? "AdamW" : "Adam") << " on " << threads << " threads");
            set_num_threads(threads);
            Generator g(5);
            Tensor p = randn({n}, g).requires_grad_();
            std::vector<float> want_p, m(static_cast<std::size_t>(n), 0.0f), v(m);
            for (double x : p.to_vector()) want_p.push_back(static_cast<float>(x));
            const nn::optim::AdamOptions o{.lr = 0.01, .weight_decay = 0.1};
            std::unique_ptr<nn::optim::Optimizer> opt;
            if (decoupled) opt = std::make_unique<nn::optim::AdamW>(std::vector<Tensor>{p}, o);
            else opt = std::make_unique<nn::optim::Adam>(std::vector<Tensor>{p}, o);
            for (int t = 1; t <= 3; ++t) {
                const Tensor grad = randn({n}, g);
                p.set_grad(grad);
                opt->step();
                const std::vector<double> gv = grad.to_vector();
                const reference::AdamStep a{0.01, 0.9, 0.999, 1e-8, 0.1, static_cast<double>(t), decoupled};
                for (std::size_t i = 0; i < want_p.size(); ++i)
                    reference::adam_update(want_p[i], static_cast<float>(gv[i]), m[i], v[i], a);
            }
            const std::vector<double> got = p.to_vector();
            for (std::size_t i = 0; i < got.size(); ++i) {
                INFO("element " << i << ": got " << got[i] << ", reference " << want_p[i]);
                REQUIRE(std::abs(got[i] - want_p[i]) <= 1e-6 * (1 + std::abs(want_p[i])));
            }
        }
    set_num_threads(2);
}
