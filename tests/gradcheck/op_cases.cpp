// The float64 gradient checks of the autograd ops: the only list of them (the
// per-file tests in tests/autograd check values). At least one case per op, and
// one per hard part: broadcast and 0-d operands, scalar forms, batch dims, every
// matmul layout, negative dims, causal, padding and fully masked rows, ignored
// targets, label smoothing.
#include "lectern/autograd/autograd.h"
#include "catalog.h"

namespace gradcheck_catalog {
namespace {

using namespace autograd;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

Tensor leaf(const Shape& shape, std::uint64_t seed, double low = -1, double high = 1) {
    Generator g(seed);
    return uniform(shape, low, high, g, Dtype::float64).requires_grad_();
}

Case op(std::string name, std::string shapes, std::function<std::vector<Tensor>()> inputs, Fn f) {
    return {"autograd", std::move(name), std::move(shapes), [inputs, f] { return gradcheck(f, inputs()); }};
}

Tensor ids(const std::vector<double>& v, const Shape& s) { return tensor(v, s, Dtype::int64); }

}  // namespace

std::vector<Case> op_cases() {
    return {
        op("add", "[2,3,4] + [3,1]", [] { return std::vector{leaf({2, 3, 4}, 1), leaf({3, 1}, 2)}; },
           [](auto& x) { return add(x[0], x[1]); }),
        op("sub", "[4,1] - [3]", [] { return std::vector{leaf({4, 1}, 1), leaf({3}, 2)}; },
           [](auto& x) { return sub(x[0], x[1]); }),
        op("mul", "[2,1,3] * [4,1]", [] { return std::vector{leaf({2, 1, 3}, 1), leaf({4, 1}, 2)}; },
           [](auto& x) { return mul(x[0], x[1]); }),
        op("div", "[3,4] / [4]", [] { return std::vector{leaf({3, 4}, 1), leaf({4}, 2, 0.5, 2)}; },
           [](auto& x) { return div(x[0], x[1]); }),
        op("neg", "[5]", [] { return std::vector{leaf({5}, 1)}; }, [](auto& x) { return neg(x[0]); }),
        op("add/sub/mul/div", "[2,3] with a [] operand", [] { return std::vector{leaf({2, 3}, 1), leaf({}, 2)}; },
           [](auto& x) { return (x[0] + x[1]) * (x[0] - x[1]) / (x[1] * x[1] + 1.0); }),
        op("scalar forms", "[2,3]: x+s, x-s, s-x, x*s, x/s, s/x", [] { return std::vector{leaf({2, 3}, 1)}; },
           [](auto& x) { return -x[0] * 3.0 + 2.0 - 1.0 / (x[0] * x[0] + 2.0) + (2.0 - x[0]) / 4.0 - 1.0; }),
        op("linear", "[2,3,4] W[5,4] b[5]", [] { return std::vector{leaf({2, 3, 4}, 1), leaf({5, 4}, 2), leaf({5}, 3)}; },
           [](auto& x) { return linear(x[0], x[1], x[2]); }),
        op("linear (no bias)", "[3,4] W[2,4]", [] { return std::vector{leaf({3, 4}, 1), leaf({2, 4}, 2)}; },
           [](auto& x) { return linear(x[0], x[1]); }),
        op("matmul", "[2,1,3,4] @ [3,4,5]", [] { return std::vector{leaf({2, 1, 3, 4}, 1), leaf({3, 4, 5}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1]); }),
        op("matmul (A^T B^T)", "[2,4,3]^T @ [5,4]^T", [] { return std::vector{leaf({2, 4, 3}, 1), leaf({5, 4}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], true, true); }),
        op("matmul", "[3,4] @ [4,2]", [] { return std::vector{leaf({3, 4}, 1), leaf({4, 2}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1]); }),
        op("matmul (A^T)", "[4,3]^T @ [4,2]", [] { return std::vector{leaf({4, 3}, 1), leaf({4, 2}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], true, false); }),
        op("matmul (B^T)", "[3,4] @ [2,4]^T", [] { return std::vector{leaf({3, 4}, 1), leaf({2, 4}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], false, true); }),
        op("matmul (A^T B^T)", "[4,3]^T @ [2,4]^T", [] { return std::vector{leaf({4, 3}, 1), leaf({2, 4}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], true, true); }),
        op("matmul", "[2,3,4] @ [2,4,2] (batched)", [] { return std::vector{leaf({2, 3, 4}, 1), leaf({2, 4, 2}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1]); }),
        op("matmul (B^T)", "[2,3,4] @ [5,4]^T (a Linear)", [] { return std::vector{leaf({2, 3, 4}, 1), leaf({5, 4}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], false, true); }),
        op("matmul (A^T)", "[2,4,3]^T @ [4,2] (B shared)", [] { return std::vector{leaf({2, 4, 3}, 1), leaf({4, 2}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], true, false); }),
        op("matmul (B^T)", "[3,4] @ [2,5,4]^T (A shared)", [] { return std::vector{leaf({3, 4}, 1), leaf({2, 5, 4}, 2)}; },
           [](auto& x) { return matmul(x[0], x[1], false, true); }),
        op("reshape", "[2,6] -> [3,-1]", [] { return std::vector{leaf({2, 6}, 1)}; },
           [](auto& x) { return reshape(x[0], {3, -1}) * arange(4, Dtype::float64); }),
        op("transpose", "[2,3,4] (0,2)", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return transpose(x[0], 0, 2); }),
        op("transpose", "[2,3,4] (1,-1)", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return transpose(x[0], 1, -1); }),
        op("permute", "[2,3,4,5] (0,2,1,3)", [] { return std::vector{leaf({2, 3, 4, 5}, 1)}; },
           [](auto& x) { return permute(x[0], {0, 2, 1, 3}); }),
        op("unsqueeze/squeeze", "[3,4]", [] { return std::vector{leaf({3, 4}, 1)}; },
           [](auto& x) { return squeeze(unsqueeze(x[0], 1) * leaf({3, 1, 4}, 9).detach(), 1); }),
        op("concat", "[2,3] ++ [2,5] on dim 1", [] { return std::vector{leaf({2, 3}, 1), leaf({2, 5}, 2)}; },
           [](auto& x) { return concat({x[0], x[1]}, 1); }),
        op("conv_windows", "[2,5,3], k 3, dilation 2, left 2 (windows past both ends)",
           [] { return std::vector{leaf({2, 5, 3}, 1)}; }, [](auto& x) { return conv_windows(x[0], 3, 2, 2); }),
        op("conv1d (causal)", "[2,6,3] W[4,3,3] b[4]",
           [] { return std::vector{leaf({2, 6, 3}, 1), leaf({4, 3, 3}, 2), leaf({4}, 3)}; },
           [](auto& x) { return conv1d(x[0], x[1], x[2]); }),
        op("conv1d (same, dilation 2, no bias)", "[2,7,2] W[3,4,2]",
           [] { return std::vector{leaf({2, 7, 2}, 1), leaf({3, 4, 2}, 2)}; },
           [](auto& x) { return conv1d(x[0], x[1], Tensor(), 2, ConvPadding::same); }),
        op("concat", "[2,3,2] ++ [2,3,4] ++ the first again, dim -1",
           [] { return std::vector{leaf({2, 3, 2}, 1), leaf({2, 3, 4}, 2)}; },
           [](auto& x) { return concat({x[0], x[1], x[0]}, -1); }),
        op("stack", "[2,3] x 3 on a new dim 1", [] { return std::vector{leaf({2, 3}, 1), leaf({2, 3}, 2), leaf({2, 3}, 3)}; },
           [](auto& x) { return stack({x[0], x[1], x[2]}, 1); }),
        op("stack", "[2,3] twice on a new dim -1", [] { return std::vector{leaf({2, 3}, 1)}; },
           [](auto& x) { return stack({x[0], x[0] * 2.0}, -1); }),
        op("narrow", "[4,6] dim 1 [2,5)", [] { return std::vector{leaf({4, 6}, 1)}; },
           [](auto& x) { return narrow(x[0], 1, 2, 3); }),
        op("narrow", "[2,4,3] dim 1 [1,3)", [] { return std::vector{leaf({2, 4, 3}, 1)}; },
           [](auto& x) { return narrow(x[0], 1, 1, 2); }),
        op("select", "[3,4,5] dim 1 index 2", [] { return std::vector{leaf({3, 4, 5}, 1)}; },
           [](auto& x) { return select(x[0], 1, 2); }),
        op("select", "[3,4] dim -1 index -1", [] { return std::vector{leaf({3, 4}, 1)}; },
           [](auto& x) { return select(x[0], -1, -1); }),
        op("index_select", "[5,3] rows [[0,4],[4,2]]", [] { return std::vector{leaf({5, 3}, 1)}; },
           [](auto& x) { return index_select(x[0], 0, ids({0, 4, 4, 2}, {2, 2})); }),
        op("index_select", "[2,3,2] dim 1 ids [0,0,2]", [] { return std::vector{leaf({2, 3, 2}, 1)}; },
           [](auto& x) { return index_select(x[0], 1, ids({0, 0, 2}, {3})); }),
        op("sum", "[2,3,4] all elements", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return sum(x[0]); }),
        op("sum", "[2,3,4] dim 1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return sum(x[0], 1); }),
        op("sum", "[3,4] dim 0, keepdim", [] { return std::vector{leaf({3, 4}, 1)}; },
           [](auto& x) { return sum(x[0], 0, true); }),
        op("mean", "[2,3,4] dim -1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return mean(x[0], -1); }),
        op("mean", "[2,3,4] all elements", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return mean(x[0]); }),
        op("mean", "[2,3,4] dim 0, keepdim", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return mean(x[0], 0, true); }),
        op("max", "[3,5] dim 1", [] { return std::vector{leaf({3, 5}, 1)}; }, [](auto& x) { return max(x[0], 1); }),
        op("max", "[2,3,4] dim 0, keepdim", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return max(x[0], 0, true); }),
        op("max", "[2,3,4] dim -1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return max(x[0], -1); }),
        op("exp", "[4]", [] { return std::vector{leaf({4}, 1)}; }, [](auto& x) { return exp(x[0]); }),
        op("log", "[4] in (0.5, 2)", [] { return std::vector{leaf({4}, 1, 0.5, 2)}; },
           [](auto& x) { return log(x[0]); }),
        op("sqrt", "[4] in (0.5, 2)", [] { return std::vector{leaf({4}, 1, 0.5, 2)}; },
           [](auto& x) { return sqrt(x[0]); }),
        op("pow", "[4]^2.5", [] { return std::vector{leaf({4}, 1, 0.5, 2)}; },
           [](auto& x) { return pow(x[0], 2.5); }),
        op("pow", "[2,3]^-1.5", [] { return std::vector{leaf({2, 3}, 1, 0.5, 2)}; },
           [](auto& x) { return pow(x[0], -1.5); }),
        op("tanh", "[2,3]", [] { return std::vector{leaf({2, 3}, 1)}; }, [](auto& x) { return tanh(x[0]); }),
        op("sigmoid", "[2,3]", [] { return std::vector{leaf({2, 3}, 1)}; }, [](auto& x) { return sigmoid(x[0]); }),
        op("abs", "[2,3]", [] { return std::vector{leaf({2, 3}, 1)}; }, [](auto& x) { return abs(x[0]); }),
        op("clamp", "[3,4] to [-0.5, 0.3]", [] { return std::vector{leaf({3, 4}, 1)}; },
           [](auto& x) { return clamp(x[0], -0.5, 0.3); }),
        op("where", "cond int64 [3], a [2,3], b [2,1]",
           [] { return std::vector{leaf({2, 3}, 1), leaf({2, 1}, 2)}; },
           [](auto& x) { return where(ids({1, 0, 1}, {3}), x[0], x[1]); }),
        op("where", "cond lt(a, b) [2,3], a [2,3], b [3]", [] { return std::vector{leaf({2, 3}, 1), leaf({3}, 2)}; },
           [](auto& x) { return where(lt(x[0].detach(), x[1].detach()), x[0], x[1] * 3.0); }),
        op("relu", "[2,3]", [] { return std::vector{leaf({2, 3}, 1)}; }, [](auto& x) { return relu(x[0]); }),
        op("gelu", "[2,3]", [] { return std::vector{leaf({2, 3}, 1)}; }, [](auto& x) { return gelu(x[0]); }),
        op("gelu_tanh", "[2,3] in [-3, 3]", [] { return std::vector{leaf({2, 3}, 1, -3, 3)}; },
           [](auto& x) { return gelu_tanh(x[0]); }),
        op("softmax", "[2,3,4] dim 1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return softmax(x[0], 1); }),
        op("softmax", "[2,3,4] dim 0", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return softmax(x[0], 0); }),
        op("softmax", "[2,3,4] dim -1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return softmax(x[0], -1); }),
        op("log_softmax", "[3,5] dim -1", [] { return std::vector{leaf({3, 5}, 1)}; },
           [](auto& x) { return log_softmax(x[0], -1); }),
        op("log_softmax", "[2,3,4] dim 0", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return log_softmax(x[0], 0); }),
        op("log_softmax", "[2,3,4] dim 1", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return log_softmax(x[0], 1); }),
        op("masked_softmax", "[2,2,3,3] causal mask, scale 0.5", [] { return std::vector{leaf({2, 2, 3, 3}, 1)}; },
           [](auto& x) { return masked_softmax(x[0], ids({1, 0, 0, 1, 1, 0, 1, 1, 1}, {1, 1, 3, 3}), 0.5); }),
        op("masked_softmax", "[2,2,3,3] padding mask [2,1,1,3], scale 0.7",
           [] { return std::vector{leaf({2, 2, 3, 3}, 2)}; },
           [](auto& x) { return masked_softmax(x[0], ids({1, 1, 0, 1, 1, 1}, {2, 1, 1, 3}), 0.7); }),
        op("masked_softmax", "[2,2,3,3] batch 0 fully masked, scale 0.7",
           [] { return std::vector{leaf({2, 2, 3, 3}, 2)}; },
           [](auto& x) { return masked_softmax(x[0], ids({0, 0, 0, 1, 1, 1}, {2, 1, 1, 3}), 0.7); }),
        op("multi_head_attention", "self, q/k/v [2,3,4], 2 heads, causal mask [1,3,3]",
           [] { return std::vector{leaf({2, 3, 4}, 1), leaf({2, 3, 4}, 2), leaf({2, 3, 4}, 3)}; },
           [](auto& x) {
               return multi_head_attention(x[0], x[1], x[2], 2, ids({1, 0, 0, 1, 1, 0, 1, 1, 1}, {1, 3, 3})).z;
           }),
        op("multi_head_attention", "cross, q [2,2,6], k [2,4,6], v [2,4,4], 2 heads, batch 1's query 0 fully masked",
           [] { return std::vector{leaf({2, 2, 6}, 4), leaf({2, 4, 6}, 5), leaf({2, 4, 4}, 6)}; },
           [](auto& x) {
               Tensor mask = ids({1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1}, {2, 2, 4});
               return multi_head_attention(x[0], x[1], x[2], 2, mask).z;
           }),
        op("multi_head_attention", "q/k/v [2,3,4], 2 heads, dropout 0.3 on P",
           [] { return std::vector{leaf({2, 3, 4}, 7), leaf({2, 3, 4}, 8), leaf({2, 3, 4}, 9)}; },
           [](auto& x) {
               Generator g(11);  // the same factors at every evaluation
               return multi_head_attention(x[0], x[1], x[2], 2, Tensor(), 0.3, true, g).z;
           }),
        op("multi_head_attention", "q/k/v [2,3,4], 2 heads, causal, unscaled (scale 1)",
           [] { return std::vector{leaf({2, 3, 4}, 12), leaf({2, 3, 4}, 13), leaf({2, 3, 4}, 14)}; },
           [](auto& x) {
               return multi_head_attention(x[0], x[1], x[2], 2, ids({1, 0, 0, 1, 1, 0, 1, 1, 1}, {1, 3, 3}), 0.0, false,
                                           default_generator(), 1.0)
                   .z;
           }),
        op("multi_head_self_attention", "qkv [2,3,12], 2 heads, scale 1.7",
           [] { return std::vector{leaf({2, 3, 12}, 15)}; },
           [](auto& x) {
               return multi_head_self_attention(x[0], 2, Tensor(), 0.0, false, default_generator(), 1.7).z;
           }),
        op("multi_head_self_attention", "qkv [2,3,12], 2 heads, causal mask [1,3,3]",
           [] { return std::vector{leaf({2, 3, 12}, 10)}; },
           [](auto& x) { return multi_head_self_attention(x[0], 2, ids({1, 0, 0, 1, 1, 0, 1, 1, 1}, {1, 3, 3})).z; }),
        op("multi_head_self_attention", "qkv [2,4,6], 1 head, dropout 0.3 on P",
           [] { return std::vector{leaf({2, 4, 6}, 11)}; },
           [](auto& x) {
               Generator g(12);  // the same factors at every evaluation
               return multi_head_self_attention(x[0], 1, Tensor(), 0.3, true, g).z;
           }),
        op("masked_fill", "[2,3] mask [1,3]", [] { return std::vector{leaf({2, 3}, 1)}; },
           [](auto& x) { return masked_fill(x[0], ids({0, 1, 0}, {1, 3}), -5.0); }),
        op("masked_fill", "[2,3,4] mask [1,3,4]", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return masked_fill(x[0], ids({1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 0}, {1, 3, 4}), 3.0); }),
        op("masked_fill", "[2,3,4] mask [2,1,4]", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return masked_fill(x[0], ids({0, 1, 1, 0, 1, 0, 0, 1}, {2, 1, 4}), 3.0); }),
        op("dropout", "[4,5] p 0.3", [] { return std::vector{leaf({4, 5}, 1)}; },
           [](auto& x) {
               Generator g(7);  // the same mask at every evaluation
               return dropout(x[0], 0.3, true, g);
           }),
        op("layer_norm", "[2,3,4] gamma/beta [4]",
           [] { return std::vector{leaf({2, 3, 4}, 1), leaf({4}, 2), leaf({4}, 3)}; },
           [](auto& x) { return layer_norm(x[0], x[1], x[2], 1e-5); }),
        op("layer_norm", "[5] (one row) gamma/beta [5]",
           [] { return std::vector{leaf({5}, 1), leaf({5}, 2), leaf({5}, 3)}; },
           [](auto& x) { return layer_norm(x[0], x[1], x[2], 1e-5); }),
        op("layer_norm", "[3,4] gamma/beta [4]", [] { return std::vector{leaf({3, 4}, 1), leaf({4}, 2), leaf({4}, 3)}; },
           [](auto& x) { return layer_norm(x[0], x[1], x[2], 1e-5); }),
        op("smoothed_nll", "[4,5] log-probs, on 0.6, off 0.1, class 0 zero, 1 row ignored",
           [] { return std::vector{leaf({4, 5}, 1)}; },
           [](auto& x) { return smoothed_nll(log_softmax(x[0], -1), ids({1, 0, 4, 2}, {4}), 0.6, 0.1, 0, 0); }),
        op("cross_entropy", "[4,5], ignore 1 row, smoothing 0.1", [] { return std::vector{leaf({4, 5}, 1)}; },
           [](auto& x) { return cross_entropy(x[0], ids({1, -100, 4, 0}, {4}), -100, 0.1); }),
        op("cross_entropy", "[4,5], ignore 1 row, no smoothing", [] { return std::vector{leaf({4, 5}, 1)}; },
           [](auto& x) { return cross_entropy(x[0], ids({0, 3, -100, 2}, {4})); }),
        op("cross_entropy", "[2,3,5] (batch dims), ignore_index 0", [] { return std::vector{leaf({2, 3, 5}, 2)}; },
           [](auto& x) { return cross_entropy(x[0], ids({1, 0, 0, 4, 0, 2}, {2, 3}), 0); }),
        op("cross_entropy", "[2,3,5], ignore_index 0, smoothing 0.1", [] { return std::vector{leaf({2, 3, 5}, 2)}; },
           [](auto& x) { return cross_entropy(x[0], ids({1, 0, 0, 4, 0, 2}, {2, 3}), 0, 0.1); }),
        op("broadcast_to", "[3,1] -> [2,3,4]", [] { return std::vector{leaf({3, 1}, 1)}; },
           [](auto& x) { return broadcast_to(x[0], {2, 3, 4}); }),
        op("sum_to", "[2,3,4] -> [3,1]", [] { return std::vector{leaf({2, 3, 4}, 1)}; },
           [](auto& x) { return sum_to(x[0], {3, 1}); }),
        op("sum_to", "[2,4,3] -> [1,3]", [] { return std::vector{leaf({2, 4, 3}, 2)}; },
           [](auto& x) { return sum_to(x[0], {1, 3}); }),
        op("broadcast_to", "[2,1] -> [4,2,3]", [] { return std::vector{leaf({2, 1}, 1)}; },
           [](auto& x) { return broadcast_to(x[0], {4, 2, 3}); }),
    };
}

}  // namespace gradcheck_catalog
