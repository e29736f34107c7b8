#pragma once
// Tensor storage comes from a caching allocator: a freed block goes on a free
// list keyed by its size class and is handed out again for the next request of
// that class, or above 64 KiB of a class up to half its size. On these machines
// first-touching fresh pages is slow (docs/design.md, "Speed on two cores": 14x
// on an 800x2048 op), and a training step repeats the same sizes every step, so
// in steady state nothing new is mapped; where batches vary in length, the
// longest batch's blocks serve the shorter ones.
#include <cstddef>
#include <new>
#include <string>

namespace autograd {

struct AllocatorStats {
    std::size_t bytes_in_use = 0;  // held by live tensors
    std::size_t blocks_in_use = 0;
    std::size_t peak_bytes_in_use = 0;  // the most bytes_in_use has been (PyTorch's max_memory_allocated)
    std::size_t bytes_cached = 0;       // freed, kept for reuse
    std::size_t blocks_cached = 0;
    std::size_t cache_hits = 0;    // requests served from the cache
    std::size_t cache_misses = 0;  // requests that went to the system
};

// A tensor's storage that the system would not give: a bad_alloc that says
// how many bytes were asked for and how many tensors already hold.
struct OutOfMemory : std::bad_alloc {
    explicit OutOfMemory(std::string message) : message_(std::move(message)) {}
    const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string message_;
};

// 64-byte aligned block of at least `bytes` (rounded up to the size class);
// OutOfMemory if the system has none.
void* allocate(std::size_t bytes);
// Returns a block allocate() gave (for any `bytes`: the block knows its class).
// Returns a block allocate() gave to the cache (the block knows its size class).
void deallocate(void* p);

AllocatorStats allocator_stats();
}  // namespace autograd
