// matmul: 2-D, transposed operands as GEMM flags, batched and broadcast batches.
#include "check.h"

using namespace autograd;

TEST_CASE("matmul of 2-D matrices by hand", "[forward]") {
    Tensor a = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
    Tensor b = tensor({7, 8, 9, 10, 11, 12}, {3, 2});
    // [1 2 3; 4 5 6] [7 8; 9 10; 11 12] = [58 64; 139 154]
    require_values(matmul(a, b), {58, 64, 139, 154});
}

TEST_CASE("transpose flags equal explicit transposes", "[forward]") {
    Tensor a = rand64({3, 4}, 1).detach(), b = rand64({4, 5}, 2).detach();
    std::vector<double> expected = matmul(a, b).to_vector();
    Tensor at = transpose(a, 0, 1), bt = transpose(b, 0, 1);
    require_values(matmul(at, b, true, false), expected, 1e-12);
    require_values(matmul(a, bt, false, true), expected, 1e-12);
    require_values(matmul(at, bt, true, true), expected, 1e-12);
}

TEST_CASE("batched matmul broadcasts batch dims", "[forward]") {
    Tensor a = rand64({2, 1, 3, 4}, 1).detach(), b = rand64({3, 4, 5}, 2).detach();
    Tensor c = matmul(a, b);
    CHECK(c.shape() == Shape{2, 3, 3, 5});
    // Entry [1, 2] is a[1, 0] @ b[2].
    Tensor expected = matmul(select(a, 0, 1), select(b, 0, 2));
    require_values(select(select(c, 0, 1), 0, 2), expected.to_vector(), 1e-12);
    Tensor folded = matmul(rand64({2, 3, 4}, 3).detach(), rand64({4, 5}, 4).detach());  // one GEMM, [6,4] x [4,5]
    CHECK(folded.shape() == Shape{2, 3, 5});
}

TEST_CASE("matmul rejects operands that do not fit", "[errors]") {
    CHECK_THROWS_WITH(matmul(zeros({2, 3}), zeros({4, 5})), "matmul: inner dimensions differ: [2, 3] @ [4, 5]");
    CHECK_THROWS_AS(matmul(zeros({3}), zeros({3, 2})), ShapeError);
    CHECK_THROWS_AS(matmul(zeros({2, 2, 3}), zeros({3, 3, 2})), ShapeError);
    CHECK_THROWS_AS(matmul(zeros({2, 3}), zeros({3, 2}, Dtype::float64)), DtypeError);
}
