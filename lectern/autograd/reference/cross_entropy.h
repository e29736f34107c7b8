#pragma once
// Cross-entropy of one row of logits against its target, with label smoothing, and its
// backward: the plain reference, which both float32 and float64 run (a row of C logits is
// read a few times per step; no faster twin pays for itself).
//   z: one row of C logits; t: its target class; eps: label smoothing (PyTorch's)
//   p = softmax(z),  log p = z - lse,  lse = max z + log sum exp(z - max z)
//   loss = -(1 - eps) log p_t - eps / C sum_c log p_c
//   dz = scale (p - (1 - eps) onehot(t) - eps / C),  scale = dloss / (rows counted)
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace autograd::reference {

// Writes p; returns the row's loss.
template <class T>
double cross_entropy_row(const T* z, std::int64_t C, std::int64_t t, double eps, T* p) {
    T max_z = z[0];
    for (std::int64_t c = 1; c < C; ++c) max_z = std::max(max_z, z[c]);
    T sum_exp = 0;
    for (std::int64_t c = 0; c < C; ++c) {
        p[c] = std::exp(z[c] - max_z);
        sum_exp += p[c];
    }
    const T lse = max_z + std::log(sum_exp);
    for (std::int64_t c = 0; c < C; ++c) p[c] /= sum_exp;
    double sum_log_p = 0;
    for (std::int64_t c = 0; c < C; ++c) sum_log_p += z[c] - lse;
    return -(1 - eps) * (z[t] - lse) - eps / static_cast<double>(C) * sum_log_p;
}

template <class T>
void cross_entropy_row_backward(const T* p, std::int64_t C, std::int64_t t, double eps, T scale, T* dz) {
    const T smooth = static_cast<T>(eps / static_cast<double>(C));
    for (std::int64_t c = 0; c < C; ++c) dz[c] = scale * (p[c] - smooth);
    dz[t] -= scale * static_cast<T>(1 - eps);
}

}  // namespace autograd::reference
