#include "benchmarks/report.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "benchmarks/vit_bench.h"

namespace benchmarks {

namespace {

const Record* training(const std::map<std::string, std::vector<Record>>& by_workload, const std::string& workload) {
    auto it = by_workload.find(workload);
    if (it == by_workload.end()) return nullptr;
    for (const Record& r : it->second)
        if (r.string("kind") == "train") return &r;
    return nullptr;
}

const Record* decoding(const std::map<std::string, std::vector<Record>>& by_workload, double tokens) {
    auto it = by_workload.find("decode");
    if (it == by_workload.end()) return nullptr;
    for (const Record& r : it->second)
        if (r.number("tokens") == tokens) return &r;
    return nullptr;
}

std::string per_second(double items, const std::string& unit) {
    if (!std::isfinite(items)) return "-";
    return items >= 1e4 ? fmt::format("{:.1f}k {}/s", items / 1e3, unit) : fmt::format("{:.0f} {}/s", items, unit);
}

std::string number(double v, const char* format = "{:.2f}") {
    return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : "-";
}

// Model FLOPs per second over the machine's measured sgemm peak.
double utilisation(const Record& r, double flops_per_step, double peak_gflops) {
    return flops_per_step / (r.number("step_ms") * 1e-3) / (peak_gflops * 1e9);
}

void print_training(const Results& res) {
    fmt::print("\nTraining steps: medians of {} steps after {} warm-up steps, in ms. Forward includes the loss; optimizer is\n"
               "clipping (ViT), learning rate, step and zeroing the gradients; step is the median of whole steps.\n",
               res.steps, res.warmup);
    fmt::print("{:<15} {:<8} {:>8} {:>9} {:>9} {:>8} {:>14} {:>10} {:>8} {:>6} {:>9}\n", "workload", "", "forward",
               "backward", "optimizer", "step", "throughput", "GFLOP/step", "GFLOP/s", "util", "peak RSS");
    for (const std::string& w : res.order) {
        const Record* lectern = training(res.lectern, w);
        if (!lectern) continue;
        const double flops = lectern->number("flops_per_step");
        for (auto [name, r] : {std::pair{"Lectern", lectern}, std::pair{"PyTorch", training(res.pytorch, w)}}) {
            if (!r) continue;
            const double step_s = r->number("step_ms") * 1e-3;
            fmt::print("{:<15} {:<8} {:>8.2f} {:>9.2f} {:>9.2f} {:>8.2f} {:>14} {:>10.3f} {:>8.1f} {:>5.1f}% {:>6.0f} MB\n",
                       name == std::string("Lectern") ? w : "", name, r->number("forward_ms"), r->number("backward_ms"),
                       r->number("optimizer_ms"), r->number("step_ms"),
                       per_second(r->number("items_per_step") / step_s, lectern->string("unit")), flops / 1e9,
                       flops / step_s / 1e9, 100 * utilisation(*r, flops, res.peak.gflops), r->number("peak_rss_mb"));
        }
    }
}

void print_side_by_side(const Results& res) {
    fmt::print("\nSide by side: median step time; ratio = PyTorch time / Lectern time (above 1: Lectern is faster).\n");
    fmt::print("{:<15} {:>11} {:>11} {:>7} {:>12} {:>12} {:>12} {:>12}\n", "workload", "PyTorch", "Lectern", "ratio",
               "util PyTorch", "util Lectern", "RSS PyTorch", "RSS Lectern");
    for (const std::string& w : res.order) {
        const Record* l = training(res.lectern, w);
        const Record* p = training(res.pytorch, w);
        if (!l || !p) continue;
        const double flops = l->number("flops_per_step");
        fmt::print("{:<15} {:>8.2f} ms {:>8.2f} ms {:>6.2f}x {:>11.1f}% {:>11.1f}% {:>9.0f} MB {:>9.0f} MB\n", w,
                   p->number("step_ms"), l->number("step_ms"), p->number("step_ms") / l->number("step_ms"),
                   100 * utilisation(*p, flops, res.peak.gflops), 100 * utilisation(*l, flops, res.peak.gflops),
                   p->number("peak_rss_mb"), l->number("peak_rss_mb"));
    }
    for (const std::string& w : {std::string("vit_default")}) {
        const Record* l = training(res.lectern, w);
        if (!l) continue;
        const double epoch_steps = static_cast<double>(vit_steps_per_epoch(static_cast<std::int64_t>(l->number("batch"))));
        auto minutes = [&](const Record* r) {
            if (!r) return std::string("-");
            const double s = 5 * epoch_steps * r->number("step_ms") * 1e-3;
            return fmt::format("{}:{:02}", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
        };
        fmt::print("ViT default preset, 5 epochs of {:.0f} steps at the median step (training only, no test passes): "
                   "PyTorch {}, Lectern {}\n",
                   epoch_steps, minutes(training(res.pytorch, w)), minutes(l));
    }
}

void print_decoding(const Results& res) {
    auto it = res.lectern.find("decode");
    if (it == res.lectern.end()) return;
    fmt::print("\nGreedy decoding, copy task small model, 1 sequence: ms per token (encoder pass included), medians.\n"
               "speed-up = recompute / cached; ratio = PyTorch / Lectern.\n");
    fmt::print("{:>6} | {:>8} {:>10} {:>9} | {:>8} {:>10} {:>9} | {:>12} {:>15}\n", "tokens", "Lectern", "Lectern",
               "speed-up", "PyTorch", "PyTorch", "speed-up", "ratio cached", "ratio recompute");
    fmt::print("{:>6} | {:>8} {:>10} {:>9} | {:>8} {:>10} {:>9} |\n", "", "cached", "recompute", "", "cached",
               "recompute", "");
    for (const Record& l : it->second) {
        const Record* p = decoding(res.pytorch, l.number("tokens"));
        const double lc = l.number("cached_ms_per_token"), lr = l.number("recompute_ms_per_token");
        const double pc = p ? p->number("cached_ms_per_token") : NAN, pr = p ? p->number("recompute_ms_per_token") : NAN;
        fmt::print("{:>6.0f} | {:>8.3f} {:>10.3f} {:>8.1f}x | {:>8} {:>10} {:>9} | {:>12} {:>15}\n", l.number("tokens"),
                   lc, lr, lr / lc, number(pc, "{:.3f}"), number(pr, "{:.3f}"), number(pr / pc, "{:.1f}x"),
                   number(pc / lc, "{:.2f}x"), number(pr / lr, "{:.2f}x"));
    }
    fmt::print("peak RSS of the decoding run: Lectern {:.0f} MB", it->second.back().number("peak_rss_mb"));
    if (const Record* p = decoding(res.pytorch, it->second.back().number("tokens")))
        fmt::print(", PyTorch {:.0f} MB", p->number("peak_rss_mb"));
    fmt::print("\n");
}

// Issue 13's targets, with this run's figures ("-" where this run lacks them).
void print_targets(const Results& res) {
    fmt::print("\nIssue 13's targets against this run:\n");
    auto line = [](const std::string& target, const std::string& measured, std::optional<bool> met) {
        fmt::print("  {:<58} {:>14}  {}\n", target, measured, met ? (*met ? "met" : "not met") : "-");
    };
    auto speedup = [&](const std::string& w, double want, const std::string& what) {
        const Record* l = training(res.lectern, w);
        const Record* p = training(res.pytorch, w);
        if (!l || !p) return line(what, "-", std::nullopt);
        const double ratio = p->number("step_ms") / l->number("step_ms");
        line(what, fmt::format("{:.2f}x", ratio), ratio >= want);
    };
    speedup("copy_small", 4, "copy task small: >= 4x PyTorch's training throughput");
    speedup("vit_patch7", 3, "ViT patch 7: >= 3x PyTorch's images/s");
    if (const Record* l = training(res.lectern, "vit_default")) {
        const double s = 5.0 * static_cast<double>(vit_steps_per_epoch(static_cast<std::int64_t>(l->number("batch")))) *
                         l->number("step_ms") * 1e-3;
        line("ViT default preset: 5 epochs in under 4 minutes (training)",
             fmt::format("{}:{:02} est.", static_cast<int>(s) / 60, static_cast<int>(s) % 60), s < 240);
    }
    if (const Record* l = training(res.lectern, "copy_annotated")) {
        const double u = utilisation(*l, l->number("flops_per_step"), res.peak.gflops);
        line("annotated preset: >= 80% of the measured sgemm peak", fmt::format("{:.1f}%", 100 * u), u >= 0.8);
    }
    if (const Record* l = decoding(res.lectern, 256)) {
        const double s = l->number("recompute_ms_per_token") / l->number("cached_ms_per_token");
        line("cached decoding at 256 tokens: >= 5x faster than recomputing", fmt::format("{:.1f}x", s), s >= 5);
    }
    bool any = false, all = true;
    for (const auto& [w, records] : res.lectern) {
        auto p = res.pytorch.find(w);
        if (p == res.pytorch.end() || p->second.empty() || records.empty()) continue;
        any = true;
        all = all && records.back().number("peak_rss_mb") <= p->second.back().number("peak_rss_mb");
    }
    line("peak RSS at most PyTorch's on every workload", any ? (all ? "yes" : "no") : "-",
         any ? std::optional(all) : std::nullopt);
}

}  // namespace

void print_report(const Results& r) {
    print_training(r);
    print_side_by_side(r);
    print_decoding(r);
    print_targets(r);
}

}  // namespace benchmarks
