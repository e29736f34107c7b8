#pragma once
// A matrix where it lies inside a larger tensor: one attention head's Q_i, K_i, V_i or Z_i
// is a [T, d] block of columns of a [B, T, H d] tensor, its rows H d (or 3 H d) apart.
// The reference kernels (autograd/reference/) and the fast ones (autograd/kernels/) both
// read and write heads through it, so neither copies a head out to work on it.
#include <cstdint>

namespace autograd {

template <class T>
struct MatrixView {
    T* data;
    std::int64_t rows, cols;
    std::int64_t ld;  // distance between the starts of two rows, >= cols

    T& operator()(std::int64_t i, std::int64_t j) const { return data[i * ld + j]; }
    T* row(std::int64_t i) const { return data + i * ld; }
    operator MatrixView<const T>() const { return {data, rows, cols, ld}; }
};

// A packed [rows, cols] matrix: rows cols apart.
template <class T>
MatrixView<T> packed_view(T* data, std::int64_t rows, std::int64_t cols) {
    return {data, rows, cols, cols};
}

// The keep flags of attention's mask for one head's rows: query i may attend to key j when
// keep[i row_step + j col_step] != 0 (steps 0 where the mask broadcasts); every key when
// keep is null.
struct MaskRows {
    const std::int64_t* keep = nullptr;
    std::int64_t row_step = 0, col_step = 0;
    const std::int64_t* row(std::int64_t i) const { return keep ? keep + i * row_step : nullptr; }
};

}  // namespace autograd
