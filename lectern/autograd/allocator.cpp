#include "lectern/autograd/allocator.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
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
constexpr std::size_t kFine = std::size_t{64} << 10;
// A request above this takes only its own class: 1 TiB, or a quarter of the address
// space where size_t has 32 bits (WebAssembly's), so that 2 sz never overflows.
constexpr std::size_t kLargestShared = static_cast<std::size_t>(
    std::min<std::uint64_t>(std::uint64_t{1} << 40, std::numeric_limits<std::size_t>::max() / 4));

std::size_t size_class(std::size_t bytes) {
    if (bytes <= kFine) return bytes == 0 ? kAlign : (bytes + kAlign - 1) / kAlign * kAlign;
    const std::size_t step = std::bit_floor(bytes) / 8;  // >= 8 KiB, a multiple of 64
    if (bytes > SIZE_MAX - (step - 1)) throw OutOfMemory(fmt::format("cannot allocate a tensor of {} bytes", bytes));
    return (bytes + step - 1) / step * step;
}

// A block begins with a header of kAlign bytes that records its size class,
// so a block handed out for a smaller request goes back to its own list.
struct Header {
    std::size_t size_class;
};
static_assert(sizeof(Header) <= kAlign);

struct Cache {
    std::mutex mu;
    std::unordered_map<std::size_t, std::vector<void*>> free_lists;  // by size class: blocks, header first
    AllocatorStats stats;

    ~Cache() { release_all(); }

    void release_all() {
        for (auto& [size, blocks] : free_lists)
            for (void* p : blocks) std::free(p);
        free_lists.clear();
        stats.bytes_cached = 0;
        stats.blocks_cached = 0;
    }

    // A cached block for a request of class sz, or null: from its own class,
    // or above 64 KiB the smallest class up to 2 sz (eight classes) that has one.
    // Batches of text vary in length from step to step; were each length to
    // keep blocks of its own classes, the cache would hold a whole step's
    // tensors for every length it has seen. So a short batch runs in a longer
    // one's blocks, and the cache holds about what the longest batch needs.
    void* take(std::size_t sz) {
        const std::size_t last = sz <= kFine || sz > kLargestShared ? sz : 2 * sz;
        for (std::size_t c = sz; c <= last; c = size_class(c + 1)) {
            auto it = free_lists.find(c);
            if (it == free_lists.end() || it->second.empty()) continue;
            void* block = it->second.back();
            it->second.pop_back();
            stats.bytes_cached -= c;
            stats.blocks_cached -= 1;
            stats.bytes_in_use += c;
            stats.blocks_in_use += 1;
            stats.peak_bytes_in_use = std::max(stats.peak_bytes_in_use, stats.bytes_in_use);
            stats.cache_hits += 1;
            return block;
        }
        return nullptr;
    }
};

Cache& cache() {
    static Cache* c = new Cache;  // never destroyed: tensors may outlive static destruction order
    return *c;
}

}  // namespace

void* allocate(std::size_t bytes) {
    const std::size_t sz = size_class(bytes);
    Cache& c = cache();
    {
        std::lock_guard lock(c.mu);
        if (void* block = c.take(sz)) return static_cast<char*>(block) + kAlign;
        c.stats.cache_misses += 1;
        c.stats.bytes_in_use += sz;
        c.stats.blocks_in_use += 1;
        c.stats.peak_bytes_in_use = std::max(c.stats.peak_bytes_in_use, c.stats.bytes_in_use);
    }
    void* block = sz <= SIZE_MAX - kAlign ? std::aligned_alloc(kAlign, sz + kAlign) : nullptr;
    if (!block) {
        std::lock_guard lock(c.mu);  // the block was counted above; it never came
        c.stats.bytes_in_use -= sz;
        c.stats.blocks_in_use -= 1;
        throw OutOfMemory(
            fmt::format("out of memory: a tensor of {:.3g} GB was asked for, with {:.3g} GB already held "
                        "by tensors",
                        static_cast<double>(bytes) / 1e9, static_cast<double>(c.stats.bytes_in_use) / 1e9));
    }
    static_cast<Header*>(block)->size_class = sz;
    return static_cast<char*>(block) + kAlign;
}

void deallocate(void* p) {
    if (!p) return;
    void* block = static_cast<char*>(p) - kAlign;
    const std::size_t sz = static_cast<Header*>(block)->size_class;
    Cache& c = cache();
    std::lock_guard lock(c.mu);
    c.free_lists[sz].push_back(block);
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
