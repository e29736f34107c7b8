#include "autograd/allocator.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace autograd {
namespace {

constexpr std::size_t kAlign = 64;

// Requests are rounded up to a size class, and each class has one free list.
// Up to 64 KiB the classes are multiples of 64 bytes. Above, there are eight
// classes per power of two (at most 12.5% rounding), so sizes that change a
// little from call to call share a list. Decoding that re-runs a growing
// prefix asks for a new size at every step, and would otherwise leave one
// cached block of each. A request so large that rounding up would wrap past
// SIZE_MAX is one no system can serve: bad_alloc, not a tiny block.
std::size_t size_class(std::size_t bytes) {
    constexpr std::size_t kFine = std::size_t{64} << 10;
    if (bytes <= kFine) return bytes == 0 ? kAlign : (bytes + kAlign - 1) / kAlign * kAlign;
    const std::size_t step = std::bit_floor(bytes) / 8;  // >= 8 KiB, a multiple of 64
    if (bytes > SIZE_MAX - (step - 1)) throw OutOfMemory(fmt::format("cannot allocate a tensor of {} bytes", bytes));
    return (bytes + step - 1) / step * step;
}

struct Cache {
    std::mutex mu;
    std::unordered_map<std::size_t, std::vector<void*>> free_lists;
    AllocatorStats stats;

    ~Cache() { release_all(); }

    void release_all() {
        for (auto& [size, blocks] : free_lists)
            for (void* p : blocks) std::free(p);
        free_lists.clear();
        stats.bytes_cached = 0;
        stats.blocks_cached = 0;
    }
};

Cache& cache() {
    static Cache* c = new Cache;  // never destroyed: tensors may outlive static destruction order
    return *c;
}

}  // namespace

void* allocate(std::size_t bytes) {
    std::size_t sz = size_class(bytes);
    Cache& c = cache();
    {
        std::lock_guard lock(c.mu);
        auto it = c.free_lists.find(sz);
        if (it != c.free_lists.end() && !it->second.empty()) {
            void* p = it->second.back();
            it->second.pop_back();
            c.stats.bytes_cached -= sz;
            c.stats.blocks_cached -= 1;
            c.stats.bytes_in_use += sz;
            c.stats.blocks_in_use += 1;
            c.stats.cache_hits += 1;
            return p;
        }
        c.stats.cache_misses += 1;
        c.stats.bytes_in_use += sz;
        c.stats.blocks_in_use += 1;
    }
    void* p = std::aligned_alloc(kAlign, sz);
    if (!p) {
        std::lock_guard lock(c.mu);  // the block was counted above; it never came
        c.stats.bytes_in_use -= sz;
        c.stats.blocks_in_use -= 1;
        throw OutOfMemory(fmt::format("out of memory: a tensor of {:.3g} GB was asked for, with {:.3g} GB already held "
                                      "by tensors", static_cast<double>(bytes) / 1e9,
                                      static_cast<double>(c.stats.bytes_in_use) / 1e9));
    }
    return p;
}

void deallocate(void* p, std::size_t bytes) {
    if (!p) return;
    std::size_t sz = size_class(bytes);
    Cache& c = cache();
    std::lock_guard lock(c.mu);
    c.free_lists[sz].push_back(p);
    c.stats.bytes_in_use -= sz;
    c.stats.blocks_in_use -= 1;
    c.stats.bytes_cached += sz;
    c.stats.blocks_cached += 1;
}

AllocatorStats allocator_stats() {
    Cache& c = cache();
    std::lock_guard lock(c.mu);
    return c.stats;
}

}  // namespace autograd
