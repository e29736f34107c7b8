// index_select: the embedding lookup, with scatter-add backward.
#include "check.h"

using namespace autograd;

TEST_CASE("index_select picks rows by id, for any index shape", "[forward]") {
    Tensor w = tensor({0, 1, 10, 11, 20, 21}, {3, 2});  // 3 tokens, d = 2
    Tensor ids = tensor({2, 0, 2, 1}, {2, 2}, Dtype::int64);
    Tensor e = index_select(w, 0, ids);
    CHECK(e.shape() == Shape{2, 2, 2});
    require_values(e, {20, 21, 0, 1, 20, 21, 10, 11});
    require_values(index_select(w, 1, tensor({1}, Dtype::int64)), {1, 11, 21});
}

TEST_CASE("index_select backward adds the gradient of a row picked twice", "[forward]") {
    Tensor w = zeros({3, 2}, Dtype::float64).requires_grad_();
    sum(index_select(w, 0, tensor({2, 2, 0}, Dtype::int64))).backward();
    require_values(w.grad(), {1, 1, 0, 0, 2, 2});
}

TEST_CASE("index_select rejects ids out of range", "[errors]") {
    Tensor w = zeros({3, 2});
    CHECK_THROWS_WITH(index_select(w, 0, tensor({0, 3}, Dtype::int64)),
                      Catch::Contains("index_select: index 3 at position 1 is outside [0, 3)"));
    CHECK_THROWS_AS(index_select(w, 0, tensor({-1}, Dtype::int64)), IndexError);
    CHECK_THROWS_AS(index_select(w, 0, tensor({0})), DtypeError);
}

// A tied embedding (GPT-2's W_emb, also its output layer): the output layer's dW reaches W's
// grad first, and the lookup then adds its few rows into that grad in place instead of
// building a dense [vocab, d] gradient. The result must be the dense sum's to the bit.
TEST_CASE("a tied embedding's rows are added into the output layer's dW, to the bit of the dense sum", "[forward]") {
    Generator g(11);
    const Tensor values = randn({9, 5}, g), r = randn({6, 9}, g);
    const Tensor ids = tensor({4, 1, 4, 7, 0, 4}, {6}, Dtype::int64);
    Tensor tied = values.clone().requires_grad_();
    sum(mul(linear(index_select(tied, 0, ids), tied), r)).backward();
    // The same function with the two uses of W as two leaves, their gradients added after.
    Tensor looked_up = values.clone().requires_grad_(), output = values.clone().requires_grad_();
    sum(mul(linear(index_select(looked_up, 0, ids), output), r)).backward();
    const Tensor dense_sum = add(output.grad(), looked_up.grad());
    const float* got = tied.grad().data<float>();
    const float* want = dense_sum.data<float>();
    for (std::int64_t i = 0; i < dense_sum.numel(); ++i) REQUIRE(got[i] == want[i]);
    // Row 4, picked three times, holds dW's row plus three rows of the lookup's gradient; row 2,
    // never picked, holds dW's row alone.
    CHECK(tied.grad().data<float>()[2 * 5] == output.grad().data<float>()[2 * 5]);
    CHECK(tied.grad().data<float>()[4 * 5] != output.grad().data<float>()[4 * 5]);
}
