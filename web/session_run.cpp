// A training session (web/training_session.h) on the command line, the same program
// natively and under node: the loss of every step to the last bit, the time a step
// takes, then copy_task's held-out decodes and exact-match line. web/compare_builds.sh
// holds the two builds' outputs side by side, web/bench_step.sh their step times.
//   session_run                       copy_task's default run
//   session_run '{"steps": 100}'      the page's knobs, as a JSON object
//   session_run --quiet '{...}'       without the line of every step
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "web/training_session.h"

int main(int argc, char** argv) {
    bool quiet = false;
    std::string knobs = "{}";
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quiet") == 0) quiet = true;
        else knobs = argv[i];
    }
    try {
        autograd::set_num_threads(1);  // as the page runs: a Web Worker is one thread
        web::TrainingSession session(web::parse_config(knobs));
        const web::SessionConfig& c = session.config();
        fmt::print(
            "{} task, {} positions, {} scores, {} heads, {} layers, {}-norm, warmup {}, seed {}, {} steps, 1 thread\n",
            c.task, c.positions, c.scores, c.heads, c.layers, c.norm, c.warmup, c.seed, c.steps);
        const auto start = std::chrono::steady_clock::now();
        double last = 0;
        while (!session.done()) {
            last = session.step();
            // %a: every bit of the double, so two builds' lines are equal only if their losses are
            if (!quiet) fmt::print("step {} loss {:a} ({:.6f})\n", session.steps_done(), last, last);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print("final loss {:a} ({:.6f})\n", last, last);
        fmt::print("ms per step: {:.2f}\n", 1000 * seconds / static_cast<double>(c.steps));
        const web::TrainingSession::Evaluation e = session.evaluate();
        fmt::print("{}{}\n", e.shown, e.line);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "session_run: %s\n", e.what());
        return 1;
    }
}
