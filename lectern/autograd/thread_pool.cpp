#include "lectern/autograd/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "lectern/autograd/threads.h"

namespace autograd::detail {
namespace {

// How long a thread with nothing to do spins before it sleeps: longer than the gap between
// two kernels of a step (a few microseconds of serial work), so that an idle machine never
// pays a wake-up inside a step; short enough that on a shared machine the waiting threads
// hand their cores back to the threads that do the work.
constexpr std::chrono::microseconds kSpin{50};

// A ticket's part while the pool writes the next job: no loop has that many parts.
constexpr std::uint64_t kClosed = 0xffffffffu;

thread_local bool t_in_parallel = false;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() holds or kSpin has passed; whether it holds.
template <class Done>
bool spin_until(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done()) return true;
            cpu_relax();
        }
        if (std::chrono::steady_clock::now() >= deadline) return done();
    }
}

// The parts in order on the calling thread.
void run_in_order(std::int64_t parts, PartFunction body, void* context) {
    const bool outer = t_in_parallel;
    t_in_parallel = true;
    try {
        for (std::int64_t part = 0; part < parts; ++part) body(context, part);
    } catch (...) {
        t_in_parallel = outer;
        throw;
    }
    t_in_parallel = outer;
}

class Pool {
public:
    Pool() : threads_(std::min(default_num_threads(), available_cores())) {}

    void run(std::int64_t parts, PartFunction body, void* context) {
        std::unique_lock lock(run_mutex_, std::try_to_lock);
        const int threads = threads_.load(std::memory_order_relaxed);
        if (!lock.owns_lock() || threads == 1) return run_in_order(parts, body, context);
        if (static_cast<int>(workers_.size()) != threads - 1) restart_workers(threads);
        // The ticket closed, the job, then the ticket open. Closed first: a worker late from
        // the last loop may hold that loop's ticket and read the part count written here; its
        // claim must fail, or it would run a part of this loop twice and count it twice.
        // (Sequentially consistent: the close comes before the count in one order that the
        // worker's read of the count and its claim also follow.) Opened last: a thread that
        // claims a part of generation g sees g's body, context and part count.
        const std::uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
        ticket_.store(std::uint64_t{generation} << 32 | kClosed);
        body_ = body;
        context_ = context;
        parts_.store(parts);
        done_.store(0, std::memory_order_relaxed);
        error_ = nullptr;
        ticket_.store(std::uint64_t{generation} << 32, std::memory_order_release);
        generation_.store(generation, std::memory_order_release);
        generation_.notify_all();  // a syscall only when a worker sleeps
        work(generation);
        auto all_done = [&] { return done_.load(std::memory_order_acquire) == parts; };
        if (!spin_until(all_done)) {
            for (std::uint32_t d; (d = done_.load(std::memory_order_acquire)) != parts;)
                done_.wait(d, std::memory_order_acquire);
        }
        if (error_) std::rethrow_exception(error_);
    }

    // The workers follow at the next loop.
    void resize(int threads) { threads_.store(threads, std::memory_order_relaxed); }
    int threads() const { return threads_.load(std::memory_order_relaxed); }

private:
    // Claims and runs parts of job `generation` until none is left.
    void work(std::uint32_t generation) {
        for (;;) {
            std::uint64_t ticket = ticket_.load();
            if (ticket >> 32 != generation) return;
            const auto part = static_cast<std::int64_t>(ticket & kClosed);
            const std::int64_t parts = parts_.load();
            if (part >= parts) return;
            if (!ticket_.compare_exchange_weak(ticket, ticket + 1)) continue;
            t_in_parallel = true;
            try {
                body_(context_, part);
            } catch (...) {
                std::lock_guard lock(error_mutex_);
                if (!error_) error_ = std::current_exception();
            }
            t_in_parallel = false;
            if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == parts) done_.notify_one();
        }
    }

    void worker_main(std::uint32_t seen) {
        for (;;) {
            auto woken = [&] { return generation_.load(std::memory_order_acquire) != seen; };
            if (!spin_until(woken)) generation_.wait(seen, std::memory_order_acquire);
            const std::uint32_t generation = generation_.load(std::memory_order_acquire);
            if (generation == seen) continue;
            seen = generation;
            if (stop_.load(std::memory_order_acquire)) return;
            work(generation);
        }
    }

    // Under run_mutex_: threads - 1 workers, started at the current generation.
    void restart_workers(int threads) {
        if (!workers_.empty()) {
            stop_.store(true, std::memory_order_release);
            generation_.fetch_add(1, std::memory_order_acq_rel);
            generation_.notify_all();
            for (std::thread& worker : workers_) worker.join();
            workers_.clear();
            stop_.store(false, std::memory_order_release);
        }
        const std::uint32_t now = generation_.load(std::memory_order_acquire);
        for (int i = 1; i < threads; ++i) workers_.emplace_back([this, now] { worker_main(now); });
    }

    std::mutex run_mutex_;  // held by the thread whose loop the pool runs
    std::atomic<int> threads_;
    std::vector<std::thread> workers_;
    PartFunction body_ = nullptr;
    void* context_ = nullptr;
    std::atomic<std::int64_t> parts_{0};
    std::atomic<std::uint64_t> ticket_{0};      // generation << 32 | the next part to claim, or kClosed
    std::atomic<std::uint32_t> generation_{0};  // what sleeping workers wait on
    std::atomic<std::uint32_t> done_{0};        // parts finished; the caller waits on it
    std::atomic<bool> stop_{false};
    std::mutex error_mutex_;
    std::exception_ptr error_;
};

// Never destroyed: a kernel may run in another object's destructor at exit, and the
// workers sleep in the kernel until the process ends.
Pool& pool() {
    static Pool* const instance = new Pool;
    return *instance;
}

}  // namespace

void run_parts(std::int64_t parts, PartFunction body, void* context) {
    if (parts <= 0) return;
    if (parts == 1 || t_in_parallel || parts >= static_cast<std::int64_t>(kClosed))
        return run_in_order(parts, body, context);
    pool().run(parts, body, context);
}

bool in_parallel() { return t_in_parallel; }

void set_pool_threads(int threads) { pool().resize(threads); }

int pool_threads() { return pool().threads(); }

}  // namespace autograd::detail
