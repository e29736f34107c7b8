// The float64 gradient checks of the image ops and layers (conv2d, pooling, the CNN) and of
// batch normalisation: rows of their own beside op_cases.cpp's and module_cases.cpp's.
#include "catalog.h"
#include "lectern/autograd/autograd.h"
#include "lectern/models/cnn.h"
#include "lectern/nn/batch_norm.h"
#include "lectern/nn/conv2d.h"
#include "lectern/nn/pool2d.h"

namespace gradcheck_catalog {
namespace {

using namespace autograd;

// Distinct values 0.1 apart, in the order of i 37 mod n (a permutation when n is no multiple of
// 37): a window's maximum leads its runner-up by more than the finite difference's step, so the
// max is differentiable where it is checked.
Tensor distinct(const Shape& shape) {
    const std::int64_t n = numel(shape);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 0.1 * static_cast<double>(i * 37 % n);
    return tensor(v, shape, Dtype::float64).requires_grad_();
}

Case op(std::string name, std::string shapes, std::function<std::vector<Tensor>()> inputs,
        std::function<Tensor(const std::vector<Tensor>&)> f) {
    return {"autograd", std::move(name), std::move(shapes), [inputs, f] { return gradcheck(f, inputs()); }};
}

// A module built by `make`, in float64, checked with respect to its input and every parameter.
template <class M>
Case module(std::string layer, std::string name, std::string shapes, std::function<std::shared_ptr<M>()> make,
            std::function<std::vector<Tensor>()> inputs,
            std::function<Tensor(const M&, const std::vector<Tensor>&)> f) {
    return {std::move(layer), std::move(name), std::move(shapes), [make, inputs, f] {
                std::shared_ptr<M> m = make();
                m->to(Dtype::float64);
                std::vector<Tensor> in = inputs();
                const auto n = static_cast<std::ptrdiff_t>(in.size());
                for (const Tensor& p : m->parameters()) in.push_back(p);
                return gradcheck([&](const std::vector<Tensor>& x) { return f(*m, {x.begin(), x.begin() + n}); }, in);
            }};
}

}  // namespace

std::vector<Case> image_cases() {
    // The catalog is a table, a case a row: its lambdas stay on the rows clang-format would break.
    // clang-format off
    std::vector<Case> cases{
        op("conv2d", "[2,3,5,4] W[4,3,3,2] b[4], stride 1",
           [] { return std::vector{leaf({2, 3, 5, 4}, 1), leaf({4, 3, 3, 2}, 2), leaf({4}, 3)}; },
           [](auto& x) { return conv2d(x[0], x[1], x[2]); }),
        op("conv2d (stride 2, padding 1, no bias)", "[2,2,5,6] W[3,2,3,3]",
           [] { return std::vector{leaf({2, 2, 5, 6}, 4), leaf({3, 2, 3, 3}, 5)}; },
           [](auto& x) { return conv2d(x[0], x[1], Tensor(), 2, 1); }),
        op("max_pool2d", "[2,2,4,6], 2x2 every 2", [] { return std::vector{distinct({2, 2, 4, 6})}; },
           [](auto& x) { return max_pool2d(x[0], 2); }),
        op("max_pool2d (overlapping)", "[1,2,5,5], 3x3 every 2", [] { return std::vector{distinct({1, 2, 5, 5})}; },
           [](auto& x) { return max_pool2d(x[0], 3, 2); }),
        op("avg_pool2d", "[2,2,4,6], 2x2 every 2", [] { return std::vector{leaf({2, 2, 4, 6}, 8)}; },
           [](auto& x) { return avg_pool2d(x[0], 2); }),
        op("avg_pool2d (overlapping)", "[1,2,5,5], 3x3 every 1", [] { return std::vector{leaf({1, 2, 5, 5}, 9)}; },
           [](auto& x) { return avg_pool2d(x[0], 3, 1); }),
    };
    cases.push_back(module<nn::Conv2d>(
        "nn", "Conv2d", "[2,2,6,6] -> 3, k 3, stride 2, padding 1",
        [] { return std::make_shared<nn::Conv2d>(2, 3, 3, 2, 1); }, [] { return std::vector{leaf({2, 2, 6, 6}, 10)}; },
        [](const nn::Conv2d& m, auto& x) { return m(x[0]); }));
    cases.push_back(module<nn::BatchNorm1d>(
        "nn", "BatchNorm1d (training)", "[5,3]", [] { return std::make_shared<nn::BatchNorm1d>(3); },
        [] { return std::vector{leaf({5, 3}, 11)}; }, [](const nn::BatchNorm1d& m, auto& x) { return m(x[0]); }));
    cases.push_back(module<nn::BatchNorm1d>(
        "nn", "BatchNorm1d (training, masked)", "[2,4,3], mask [2,4]", [] { return std::make_shared<nn::BatchNorm1d>(3); },
        [] { return std::vector{leaf({2, 4, 3}, 12)}; },
        [](const nn::BatchNorm1d& m, auto& x) {
            return m(x[0], tensor({1, 1, 1, 0, 1, 1, 0, 0}, {2, 4}, Dtype::float64));
        }));
    cases.push_back(module<nn::BatchNorm1d>(
        "nn", "BatchNorm1d (evaluation)", "[2,4,3]",
        [] {
            auto bn = std::make_shared<nn::BatchNorm1d>(3);
            Generator g(13);
            bn->forward(randn({6, 3}, g));  // running statistics away from (0, 1)
            bn->eval();
            return bn;
        },
        [] { return std::vector{leaf({2, 4, 3}, 14)}; }, [](const nn::BatchNorm1d& m, auto& x) { return m(x[0]); }));
    cases.push_back(module<models::CNN>(
        "models", "CNN", "[2,1,8,8], 2 blocks of 3 and 4 channels, 5 classes",
        [] { return std::make_shared<models::CNN>(models::CNNConfig{.image = 8, .channels = {3, 4}, .classes = 5}); },
        [] { return std::vector{leaf({2, 1, 8, 8}, 15)}; }, [](const models::CNN& m, auto& x) { return m(x[0]); }));
    // clang-format on
    return cases;
}

}  // namespace gradcheck_catalog
