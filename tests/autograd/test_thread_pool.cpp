// The pool under every parallel loop (autograd/thread_pool.h): each part runs once, whoever
// claims it; a part's exception reaches the caller after every part has finished; a loop
// inside a part, or from a second thread while the pool is busy, runs in order on its thread.
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "check.h"
#include "lectern/autograd/parallel.h"
#include "lectern/autograd/thread_pool.h"
#include "lectern/autograd/threads.h"

using namespace autograd;

namespace {

// The pool at `threads` threads while it lives (beyond this machine's cores, as a larger
// laptop would have them).
struct PoolSize {
    explicit PoolSize(int threads) : before(detail::pool_threads()) { detail::set_pool_threads(threads); }
    ~PoolSize() { detail::set_pool_threads(before); }
    int before;
};

}  // namespace

TEST_CASE("every part of a loop runs exactly once, on any number of threads, loop after loop", "[threads]") {
    for (int threads : {1, 2, 3, 8}) {
        PoolSize size(threads);
        for (std::int64_t parts : {2, 3, 7, 64}) {
            for (int loop = 0; loop < 50; ++loop) {
                std::vector<std::atomic<int>> runs(static_cast<std::size_t>(parts));
                auto body = [&](std::int64_t part) { runs[static_cast<std::size_t>(part)].fetch_add(1); };
                detail::run_parts(
                    parts, [](void* c, std::int64_t p) { (*static_cast<decltype(body)*>(c))(p); }, &body);
                for (std::int64_t p = 0; p < parts; ++p) {
                    INFO(threads << " threads, part " << p << " of " << parts << ", loop " << loop);
                    REQUIRE(runs[static_cast<std::size_t>(p)].load() == 1);
                }
            }
        }
    }
}

TEST_CASE("a part's exception reaches the caller once every part has finished", "[threads]") {
    PoolSize size(4);
    std::atomic<int> finished{0};
    auto body = [&](std::int64_t part) {
        if (part == 1) throw std::runtime_error("part 1 failed");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        finished.fetch_add(1);
    };
    auto call = [](void* c, std::int64_t p) { (*static_cast<decltype(body)*>(c))(p); };
    REQUIRE_THROWS_WITH(detail::run_parts(6, call, &body), "part 1 failed");
    CHECK(finished.load() == 5);
    CHECK_FALSE(detail::in_parallel());
    // and the pool runs the next loop
    std::atomic<int> runs{0};
    auto count = [&](std::int64_t) { runs.fetch_add(1); };
    detail::run_parts(
        6, [](void* c, std::int64_t p) { (*static_cast<decltype(count)*>(c))(p); }, &count);
    CHECK(runs.load() == 6);
}

TEST_CASE("a loop inside a part runs in order on that part's thread", "[threads]") {
    PoolSize size(2);
    std::atomic<int> wrong{0};
    parallel_for(4, 1 << 20, [&](std::int64_t, std::int64_t) {
        const auto self = std::this_thread::get_id();
        CHECK(parallel_parts(1000, 1 << 20) == 1);
        parallel_for(1000, 1 << 20, [&](std::int64_t, std::int64_t) {
            if (std::this_thread::get_id() != self) wrong.fetch_add(1);
        });
    });
    CHECK(wrong.load() == 0);
}

TEST_CASE("two threads of a user's program run loops at the same time, each loop complete", "[threads]") {
    PoolSize size(2);
    std::atomic<std::int64_t> totals[2] = {0, 0};
    auto user = [&](int who) {
        for (int loop = 0; loop < 200; ++loop)
            parallel_for(1000, 1 << 20,
                         [&](std::int64_t begin, std::int64_t end) { totals[who].fetch_add(end - begin); });
    };
    std::thread a(user, 0), b(user, 1);
    a.join();
    b.join();
    CHECK(totals[0].load() == 200 * 1000);
    CHECK(totals[1].load() == 200 * 1000);
}

// A worker late from one loop must not claim a part of the next: loops of few parts
// alternate with loops of many, so that a stale claim of part 2 of a two-part loop would
// land in the next loop's range. A part run twice, or a count of finished parts gone past
// the loop's (a hang), is what such a claim would cause.
TEST_CASE("a worker late from a small loop claims no part of the next, larger one", "[threads]") {
    for (int threads : {2, 3, 8}) {
        PoolSize size(threads);
        std::vector<std::atomic<int>> runs(64);
        auto body = [&](std::int64_t part) {
            runs[static_cast<std::size_t>(part)].fetch_add(1, std::memory_order_relaxed);
        };
        auto call = [](void* c, std::int64_t p) { (*static_cast<decltype(body)*>(c))(p); };
        int twice = 0;
        for (int loop = 0; loop < 20000; ++loop) {
            const std::int64_t parts = loop % 2 == 0 ? 2 : 64;
            for (std::int64_t p = 0; p < parts; ++p)
                runs[static_cast<std::size_t>(p)].store(0, std::memory_order_relaxed);
            detail::run_parts(parts, call, &body);
            for (std::int64_t p = 0; p < parts; ++p)
                if (runs[static_cast<std::size_t>(p)].load(std::memory_order_relaxed) != 1) ++twice;
        }
        INFO(threads << " threads");
        CHECK(twice == 0);
    }
}
