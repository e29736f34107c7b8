#pragma once
// Reductions along a row in a fixed order that vectorises. A plain running sum is
// one long chain of dependent adds that GCC must keep in order (no -ffast-math
// here); eight running values, term j going to value j mod 8, combined pairwise at the
// end, are one vector register's lanes. The order is this code's, so the result is the
// same on every machine and with any number of threads. Internal to autograd.
#include <algorithm>
#include <cstdint>

namespace autograd::detail {

// sum of term(j) for j in [0, n)
template <class T, class Term>
T eight_way_sum(std::int64_t n, Term term) {
    T acc[8] = {};
    std::int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int l = 0; l < 8; ++l) acc[l] += term(j + l);
    for (int l = 0; j < n; ++j, ++l) acc[l] += term(j);
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

// max of term(j) for j in [0, n), or `lowest` when n is 0 (NaN terms are skipped)
template <class T, class Term>
T eight_way_max(std::int64_t n, T lowest, Term term) {
    T acc[8] = {lowest, lowest, lowest, lowest, lowest, lowest, lowest, lowest};
    std::int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int l = 0; l < 8; ++l) acc[l] = std::max(acc[l], term(j + l));
    for (int l = 0; j < n; ++j, ++l) acc[l] = std::max(acc[l], term(j));
    return std::max(std::max(std::max(acc[0], acc[1]), std::max(acc[2], acc[3])),
                    std::max(std::max(acc[4], acc[5]), std::max(acc[6], acc[7])));
}

}  // namespace autograd::detail
