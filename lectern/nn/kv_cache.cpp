#include "lectern/nn/kv_cache.h"

#include <algorithm>
#include <cstring>

#include "lectern/autograd/autograd.h"

namespace nn {

using namespace autograd;

void KVCache::clear() {
    keys = values = keys_t = values_by_head = Tensor();
    held = 0;
}

void KVCache::append_by_head(const Tensor& k_new, const Tensor& v_new, std::int64_t heads) {
    const std::int64_t B = k_new.size(0), t = k_new.size(1), dk = k_new.size(2) / heads, dv = v_new.size(2) / heads;
    const std::int64_t C = by_head() ? keys_t.size(3) : 0;
    if (held + t > C) {  // room for twice what is held, at least 16 positions, in whole vectors of 8
        const std::int64_t room = (std::max({held + t, 2 * C, std::int64_t{16}}) + 7) / 8 * 8;
        Tensor kt = zeros({B, heads, dk, room}), vh = zeros({B, heads, room, dv});
        for (std::int64_t row = 0; held > 0 && row < B * heads * dk; ++row)  // a row of K^T: one of a head's d_k
            std::memcpy(kt.data<float>() + row * room, keys_t.data<float>() + row * C,
                        static_cast<std::size_t>(held) * sizeof(float));
        for (std::int64_t bh = 0; held > 0 && bh < B * heads; ++bh)
            std::memcpy(vh.data<float>() + bh * room * dv, values_by_head.data<float>() + bh * C * dv,
                        static_cast<std::size_t>(held * dv) * sizeof(float));
        keys_t = kt, values_by_head = vh;
    }
    const std::int64_t room = keys_t.size(3);
    const float *k = k_new.data<float>(), *v = v_new.data<float>();
    float *kt = keys_t.data<float>(), *vh = values_by_head.data<float>();
    for (std::int64_t b = 0; b < B; ++b)
        for (std::int64_t s = 0; s < t; ++s)
            for (std::int64_t h = 0; h < heads; ++h) {
                const std::int64_t bh = b * heads + h, at = held + s;
                const float* k_row = k + (b * t + s) * heads * dk + h * dk;
                for (std::int64_t x = 0; x < dk; ++x) kt[(bh * dk + x) * room + at] = k_row[x];
                std::memcpy(vh + (bh * room + at) * dv, v + (b * t + s) * heads * dv + h * dv,
                            static_cast<std::size_t>(dv) * sizeof(float));
            }
    held += t;
}

void KVCache::reorder(const Tensor& rows) {
    if (length() == 0) return;
    if (by_head()) {
        keys_t = index_select(keys_t, 0, rows);
        values_by_head = index_select(values_by_head, 0, rows);
    } else {
        keys = index_select(keys, 0, rows);
        values = index_select(values, 0, rows);
    }
}

}  // namespace nn
