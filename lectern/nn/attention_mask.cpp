#include "lectern/nn/attention_mask.h"

#include <fmt/format.h>

namespace nn {

using namespace autograd;

Tensor subsequent_mask(std::int64_t n) {
    if (n <= 0) throw ValueError(fmt::format("subsequent_mask: size must be positive, got {}", n));
    Tensor m = zeros({1, n, n}, Dtype::int64);
    std::int64_t* p = m.data<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j <= i; ++j) p[i * n + j] = 1;
    return m;
}

Tensor causal_mask(std::int64_t queries, std::int64_t past, std::int64_t block) {
    if (queries <= 0 || past < 0 || block < 0)
        throw ValueError(
            fmt::format("causal_mask: needs queries > 0, past >= 0, block >= 0; got {}, {}, {}", queries, past, block));
    const std::int64_t keys = past + queries;
    Tensor m = zeros({1, queries, keys}, Dtype::int64);
    std::int64_t* p = m.data<std::int64_t>();
    for (std::int64_t i = 0; i < queries; ++i) {
        const std::int64_t pos = past + i, first = block > 0 ? pos - pos % block : 0;
        for (std::int64_t j = first; j <= pos; ++j) p[i * keys + j] = 1;
    }
    return m;
}

namespace {

// [1, n, n] with 1 where keep(i, j).
template <class Keep>
Tensor pattern_mask(std::int64_t n, Keep keep) {
    Tensor m = zeros({1, n, n}, Dtype::int64);
    std::int64_t* p = m.data<std::int64_t>();
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) p[i * n + j] = keep(i, j);
    return m;
}

void check_pattern(const char* what, std::int64_t n, const char* size_name, std::int64_t size) {
    if (n <= 0 || size <= 0)
        throw ValueError(fmt::format("{}: size and {} must be positive, got {} and {}", what, size_name, n, size));
}

}  // namespace

Tensor block_local_mask(std::int64_t n, std::int64_t block, Direction direction) {
    check_pattern("block_local_mask", n, "block size", block);
    if (direction == Direction::causal) return causal_mask(n, 0, block);
    return pattern_mask(n, [block](std::int64_t i, std::int64_t j) { return i / block == j / block; });
}

Tensor strided_mask(std::int64_t n, std::int64_t stride, Direction direction) {
    check_pattern("strided_mask", n, "stride", stride);
    const bool causal = direction == Direction::causal;
    return pattern_mask(n, [stride, causal](std::int64_t i, std::int64_t j) {
        return (i - j) % stride == 0 && (!causal || j <= i);
    });
}

Tensor hybrid_mask(std::int64_t n, std::int64_t block, std::int64_t stride, std::int64_t heads, Direction direction) {
    check_pattern("hybrid_mask", n, "block size", block);
    check_pattern("hybrid_mask", n, "stride", stride);
    if (heads < 2)
        throw ValueError(fmt::format("hybrid_mask: splits the heads in two, so needs at least 2, got {}", heads));
    const std::int64_t block_heads = hybrid_block_heads(heads);
    const std::vector<double> in_block = block_local_mask(n, block, direction).to_vector(),
                              strided = strided_mask(n, stride, direction).to_vector();
    Tensor m = zeros({heads, n, n}, Dtype::int64);
    std::int64_t* p = m.data<std::int64_t>();
    for (std::int64_t h = 0; h < heads; ++h)
        for (std::int64_t e = 0; e < n * n; ++e)
            p[h * n * n + e] =
                static_cast<std::int64_t>((h < block_heads ? in_block : strided)[static_cast<std::size_t>(e)]);
    return m;
}

Tensor padding_mask(const Tensor& ids, std::int64_t pad) {
    check_dtype("padding_mask", ids, Dtype::int64, "ids");
    if (ids.dim() != 2)
        throw ShapeError(fmt::format("padding_mask: ids must be [B, T], got {}", shape_str(ids.shape())));
    Tensor m = Tensor::empty({ids.size(0), 1, ids.size(1)}, Dtype::int64);
    const std::int64_t* p = ids.data<std::int64_t>();
    std::int64_t* q = m.data<std::int64_t>();
    for (std::int64_t i = 0; i < ids.numel(); ++i) q[i] = p[i] != pad;
    return m;
}

Tensor mask_and(const Tensor& a, const Tensor& b) {
    check_dtype("mask_and", a, Dtype::int64, "mask");
    check_dtype("mask_and", b, Dtype::int64, "mask");
    Shape s = broadcast_shapes("mask_and", a.shape(), b.shape());
    Tensor out = Tensor::empty(s, Dtype::int64);
    Shape sa = broadcast_strides(a.shape(), s), sb = broadcast_strides(b.shape(), s), idx(s.size(), 0);
    const std::int64_t* pa = a.data<std::int64_t>();
    const std::int64_t* pb = b.data<std::int64_t>();
    std::int64_t* q = out.data<std::int64_t>();
    for (std::int64_t i = 0, n = out.numel(); i < n; ++i) {
        std::int64_t rest = i, oa = 0, ob = 0;
        for (std::size_t d = s.size(); d-- > 0;) {
            oa += (rest % s[d]) * sa[d];
            ob += (rest % s[d]) * sb[d];
            rest /= s[d];
        }
        q[i] = pa[oa] != 0 && pb[ob] != 0;
    }
    return out;
}

}  // namespace nn
