// Indexing: x[i], strided slices, gather, scatter and scatter_add, by hand with their gradients.
#include "check.h"

using namespace autograd;

TEST_CASE("x[i] is select(x, 0, i) and its gradient lands in row i", "[forward]") {
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {3, 2}, Dtype::float64).requires_grad_();
    require_values(x[1], {3, 4});
    require_values(x[-1], {5, 6});
    CHECK(x[2][1].item() == 6);
    sum(x[1] * 2.0).backward();
    require_values(x.grad(), {0, 0, 2, 2, 0, 0});
    CHECK_THROWS_AS(x[3], IndexError);
}

TEST_CASE("slice takes start:end:step as Python does, and places the gradient back", "[forward]") {
    Tensor x = arange(10, Dtype::float64).detach().requires_grad_();
    require_values(slice(x, 0, 1, 8, 3), {1, 4, 7});
    require_values(slice(x, 0, -3), {7, 8, 9});                     // x[-3:]
    require_values(slice(x, 0, 0, kEnd, 4), {0, 4, 8});             // x[::4]
    require_values(slice(x, 0, 2, 100), {2, 3, 4, 5, 6, 7, 8, 9});  // an end past the size is clamped
    CHECK(slice(x, 0, 6, 2).numel() == 0);                          // an empty range
    sum(slice(x, 0, 1, 8, 3) * tensor({1, 2, 3}, Dtype::float64)).backward();
    require_values(x.grad(), {0, 1, 0, 0, 2, 0, 0, 3, 0, 0});
    // along an inner dim of [2, 4]: columns 1 and 3
    Tensor m = tensor({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}, Dtype::float64);
    require_values(m.slice(1, 1, kEnd, 2), {2, 4, 6, 8});
    CHECK_THROWS_WITH(slice(x, 0, 0, 5, 0), "slice: step 0 must be positive");
}

TEST_CASE("gather picks along a dim by index, and its gradient adds back into the picked places", "[forward]") {
    // logp [2, 3], each row's target picked: gather(logp, 1, [[2], [0]])
    Tensor x = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64).requires_grad_();
    Tensor targets = tensor({2, 0}, {2, 1}, Dtype::int64);
    require_values(gather(x, 1, targets), {3, 4});
    // along dim 0, an index picked twice: y[i][j] = x[index[i][j]][j]
    Tensor idx = tensor({1, 0, 1, 1, 1, 0}, {2, 3}, Dtype::int64);
    require_values(x.gather(0, idx), {4, 2, 6, 4, 5, 3});
    sum(gather(x, 0, idx)).backward();
    require_values(x.grad(), {0, 1, 1, 2, 1, 1});  // x[1][0] picked twice
    CHECK_THROWS_WITH(gather(x, 1, tensor({3}, {1, 1}, Dtype::int64)),
                      "gather: index entry 0 is 3, outside [0, 3) of dim 1 of [2, 3]");
    CHECK_THROWS_AS(gather(x, 1, tensor({0, 1}, Dtype::int64)), ShapeError);  // rank 1 against rank 2
}

TEST_CASE("scatter_add adds src into x at the index, scatter writes it; their gradients by hand", "[forward]") {
    Tensor x = zeros({2, 3}, Dtype::float64).requires_grad_();
    Tensor src = tensor({1, 2, 3, 4}, {2, 2}, Dtype::float64).requires_grad_();
    Tensor idx = tensor({0, 2, 0, 0}, {2, 2}, Dtype::int64);
    // row 0: src[0] = [1, 2] to columns 0 and 2; row 1: [3, 4] both to column 0
    Tensor y = scatter_add(x, 1, idx, src);
    require_values(y, {1, 0, 2, 7, 0, 0});
    Tensor w = tensor({1, 2, 3, 4, 5, 6}, {2, 3}, Dtype::float64);
    sum(y * w).backward();
    require_values(x.grad(), {1, 2, 3, 4, 5, 6});  // dy
    require_values(src.grad(), {1, 3, 4, 4});      // dy at each entry's place
    x.zero_grad(), src.zero_grad();
    Tensor z = scatter(ones({2, 3}, Dtype::float64).requires_grad_(), 1, idx, src);
    require_values(z, {1, 1, 2, 4, 1, 1});  // column 0 of row 1 keeps the last written, 4
    Tensor base = ones({2, 3}, Dtype::float64).requires_grad_();
    sum(scatter(base, 1, idx, src) * w).backward();
    require_values(base.grad(), {0, 2, 0, 0, 5, 6});  // the written places get none
    require_values(src.grad(), {1, 3, 4, 4});
}
