#include "benchmarks/report.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "benchmarks/workloads.h"

namespace benchmarks {

namespace {

const Record* training(const std::map<std::string, std::vector<Record>>& by_workload, const std::string& workload) {
    auto it = by_workload.find(workload);
    if (it == by_workload.end()) return nullptr;
    for (const Record& r : it->second)
        if (r.string("kind") == "train") return &r;
    return nullptr;
}

// The decoding record of `way` ("cached" or "recompute") at `tokens`.
const Record* decoding(const std::map<std::string, std::vector<Record>>& by_workload, const std::string& way,
                       double tokens) {
    auto it = by_workload.find("decode_" + way);
    if (it == by_workload.end()) return nullptr;
    for (const Record& r : it->second)
        if (r.number("tokens") == tokens) return &r;
    return nullptr;
}

double ms_per_token(const Record* r) { return r ? r->number("ms_per_token") : NAN; }

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
    fmt::print(
        "\nTraining steps: medians of {} steps after {} warm-up steps, in ms. Forward includes the loss; optimizer is\n"
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
            fmt::print(
                "{:<15} {:<8} {:>8.2f} {:>9.2f} {:>9.2f} {:>8.2f} {:>14} {:>10.3f} {:>8.1f} {:>5.1f}% {:>6.0f} MB\n",
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
        const double epoch_steps =
            static_cast<double>(vit_steps_per_epoch(static_cast<std::int64_t>(l->number("batch"))));
        auto minutes = [&](const Record* r) {
            if (!r) return std::string("-");
            const double s = 5 * epoch_steps * r->number("step_ms") * 1e-3;
            return fmt::format("{}:{:02}", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
        };
        fmt::print(
            "ViT default preset, 5 epochs of {:.0f} steps at the median step (training only, no test passes): "
            "PyTorch {}, Lectern {}\n",
            epoch_steps, minutes(training(res.pytorch, w)), minutes(l));
    }
}

void print_decoding(const Results& res) {
    auto it = res.lectern.find("decode_cached");
    if (it == res.lectern.end()) it = res.lectern.find("decode_recompute");  // --workload decode_recompute alone
    if (it == res.lectern.end()) return;
    fmt::print(
        "\nGreedy decoding, copy task small model, 1 sequence: ms per token (encoder pass included), medians.\n"
        "speed-up = recompute / cached; ratio = PyTorch / Lectern.\n");
    fmt::print("{:>6} | {:>8} {:>10} {:>9} | {:>8} {:>10} {:>9} | {:>12} {:>15}\n", "tokens", "Lectern", "Lectern",
               "speed-up", "PyTorch", "PyTorch", "speed-up", "ratio cached", "ratio recompute");
    fmt::print("{:>6} | {:>8} {:>10} {:>9} | {:>8} {:>10} {:>9} |\n", "", "cached", "recompute", "", "cached",
               "recompute", "");
    for (const Record& r : it->second) {
        const double n = r.number("tokens");
        const double lc = ms_per_token(decoding(res.lectern, "cached", n));
        const double lr = ms_per_token(decoding(res.lectern, "recompute", n));
        const double pc = ms_per_token(decoding(res.pytorch, "cached", n));
        const double pr = ms_per_token(decoding(res.pytorch, "recompute", n));
        fmt::print("{:>6.0f} | {:>8} {:>10} {:>9} | {:>8} {:>10} {:>9} | {:>12} {:>15}\n", n, number(lc, "{:.3f}"),
                   number(lr, "{:.3f}"), number(lr / lc, "{:.1f}x"), number(pc, "{:.3f}"), number(pr, "{:.3f}"),
                   number(pr / pc, "{:.1f}x"), number(pc / lc, "{:.2f}x"), number(pr / lr, "{:.2f}x"));
    }
    for (const std::string way : {"cached", "recompute"}) {
        auto rss = [&](const std::map<std::string, std::vector<Record>>& by_workload) {
            auto w = by_workload.find("decode_" + way);
            return w == by_workload.end() || w->second.empty()
                       ? std::string("-")
                       : fmt::format("{:.0f} MB", w->second.back().number("peak_rss_mb"));
        };
        fmt::print("peak RSS, decoding {:<9}: PyTorch {:>7}, Lectern {:>7}\n", way, rss(res.pytorch), rss(res.lectern));
    }
}

// docs/performance.md's targets, with this run's figures ("-" where this run lacks them).
void print_targets(const Results& res) {
    fmt::print("\nThe targets of docs/performance.md against this run:\n");
    auto line = [](const std::string& target, const std::string& measured, std::optional<bool> met) {
        fmt::print("  {:<58} {:>14}  {}\n", target, measured, met ? (*met ? "met" : "not met") : "-");
    };
    auto faster = [&](const std::string& w, double want, const std::string& what) {
        const Record* l = training(res.lectern, w);
        const Record* p = training(res.pytorch, w);
        if (!l || !p) return line(what, "-", std::nullopt);
        const double ratio = p->number("step_ms") / l->number("step_ms");
        line(what, fmt::format("{:.2f}x", ratio), ratio >= want);
    };
    faster("copy_small", 4, "copy task small: >= 4x PyTorch's training throughput");
    faster("vit_patch7", 3, "ViT patch 7: >= 3x PyTorch's images/s");
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
    const double cache_speedup =
        ms_per_token(decoding(res.lectern, "recompute", 256)) / ms_per_token(decoding(res.lectern, "cached", 256));
    if (std::isfinite(cache_speedup))
        line("cached decoding at 256 tokens: >= 5x faster than recomputing", fmt::format("{:.1f}x", cache_speedup),
             cache_speedup >= 5);
    std::vector<std::string> larger;  // workloads where Lectern's peak RSS exceeds PyTorch's
    bool any = false;
    for (const std::string& w : res.order) {
        auto l = res.lectern.find(w), p = res.pytorch.find(w);
        if (l == res.lectern.end() || p == res.pytorch.end() || l->second.empty() || p->second.empty()) continue;
        any = true;
        if (l->second.back().number("peak_rss_mb") > p->second.back().number("peak_rss_mb")) larger.push_back(w);
    }
    line("peak RSS at most PyTorch's on every workload",
         !any             ? "-"
         : larger.empty() ? "yes"
                          : fmt::format("not {}", fmt::join(larger, ", ")),
         any ? std::optional(larger.empty()) : std::nullopt);
}

}  // namespace

void print_report(const Results& r) {
    print_training(r);
    print_side_by_side(r);
    print_decoding(r);
    print_targets(r);
}

}  // namespace benchmarks
