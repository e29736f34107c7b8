// Lectern against PyTorch on the models students run, in one run:
// this machine's sgemm peak; training steps of the copy task (small and
// annotated) and of the ViT (patch 7 and the default preset), forward,
// backward and optimizer separately and together; greedy decoding per token
// with and without the KV cache; throughput, model FLOPs, utilisation of the
// peak, peak RSS; and, when PyTorch is installed, the same workloads through
// pytorch_reference.py and the ratios. Each workload runs in a process of its
// own (this program again, with --json), so each peak RSS is that workload's.
// Figures only; it never passes or fails on time.
//   ./build/benchmarks/bench_models                      everything (a few minutes)
//   ./build/benchmarks/bench_models --workload vit_patch7 one workload
//   ./build/benchmarks/bench_models --quick --no-pytorch  the test suite's short run
//   ./build/benchmarks/bench_models --threads-sweep 1,2,4  each workload's step at each thread count
//   ./build/benchmarks/bench_models --load 3               each workload alone, beside a second
//                                                           training, and beside 3 busy processes
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "benchmarks/busy_processes.h"
#include "benchmarks/records.h"
#include "benchmarks/machine.h"
#include "benchmarks/report.h"
#include "benchmarks/workloads.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/run_program.h"

#ifndef LECTERN_PYTORCH_REFERENCE
#define LECTERN_PYTORCH_REFERENCE "benchmarks/pytorch_reference.py"
#endif

using namespace benchmarks;

namespace {

struct Options {
    std::string workload = "all";
    RunSettings run;
    int threads = autograd::default_num_threads();
    std::vector<int> sweep;  // --threads-sweep
    int load = -1;           // --load: busy processes; -1 without the flag
    bool json = false, no_pytorch = false;
    std::string python = "/usr/bin/python3", script = LECTERN_PYTORCH_REFERENCE;
};

std::vector<Record> parse_records(const std::string& text) {
    std::vector<Record> records;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (auto r = parse_json_line(line)) records.push_back(*r);
    return records;
}

// The flags a child run gets: the same settings, one workload, `threads` threads.
std::vector<std::string> child_flags(const Options& o, const std::string& workload, int threads) {
    std::vector<std::string> a = {"--workload", workload,
                                  "--steps",    std::to_string(o.run.steps),
                                  "--warmup",   std::to_string(o.run.warmup),
                                  "--threads",  std::to_string(threads),
                                  "--data",     o.run.data_dir};
    if (o.run.quick) a.push_back("--quick");
    return a;
}

// Why PyTorch will not be run, or "" if it will.
std::string pytorch_missing(const Options& o) {
    if (o.no_pytorch) return "--no-pytorch";
    if (!std::filesystem::exists(o.python)) return o.python + " not found";
    if (run_child({o.python, "-c", "import torch"}, true).status != 0) return o.python + " cannot import torch";
    if (!std::filesystem::exists(o.script)) return o.script + " not found";
    return "";
}

// Runs one workload in a child process; its records, or none (and a line on stderr).
std::vector<Record> run_workload(const std::vector<std::string>& argv, const std::string& who) {
    ChildOutput out = run_child(argv);
    std::vector<Record> records = parse_records(out.stdout_text);
    if (out.status != 0 || records.empty())
        fmt::print(stderr, "bench_models: the {} run failed (exit status {}): {}\n", who, out.status,
                   fmt::join(argv, " "));
    return records;
}

std::string step_summary(const std::vector<Record>& records) {
    for (const Record& r : records)
        if (r.string("kind") == "train") return fmt::format("{:.2f} ms/step", r.number("step_ms"));
    std::string s;
    for (const Record& r : records)
        if (r.string("kind") == "decode")
            s += fmt::format("{}{:.0f} tokens {:.3f} ms/token", s.empty() ? "" : ", ", r.number("tokens"),
                             r.number("ms_per_token"));
    return s.empty() ? "failed" : s;
}

int drive(const Options& o) {
    fmt::print(
        "bench_models: Lectern{} on the copy task, the ViT and greedy decoding | {} threads | medians of {} "
        "steps after {} warm-up{}\n",
        o.no_pytorch ? "" : " against PyTorch", o.threads, o.run.steps, o.run.warmup, o.run.quick ? " | quick" : "");
    fmt::print("machine: {}\n", machine_line());
    Results res;
    res.warmup = o.run.warmup, res.steps = o.run.steps;
    const std::int64_t n = o.run.quick ? 512 : 2048;
    res.peak = measure_sgemm_peak(n, o.run.quick ? 3 : 9);
    fmt::print("sgemm peak: {:.1f} GFLOP/s (cblas_sgemm [{}, {}] x [{}, {}], float32, {} threads, median of {})\n",
               res.peak.gflops, n, n, n, n, o.threads, o.run.quick ? 3 : 9);
    const std::string missing = pytorch_missing(o);
    bool pytorch = missing.empty();
    if (!pytorch) fmt::print("PyTorch: not run ({})\n", missing);
    const std::string self = self_path();
    int failures = 0;
    for (const Workload& w : workloads()) {
        if (o.workload != "all" && o.workload != w.name) continue;
        res.order.push_back(w.name);
        fmt::print("{}: {}\n", w.name, w.description);
        std::fflush(stdout);
        std::vector<std::string> argv = {self, "--json"};
        for (const std::string& a : child_flags(o, w.name, o.threads)) argv.push_back(a);
        res.lectern[w.name] = run_workload(argv, "Lectern " + w.name);
        failures += res.lectern[w.name].empty();
        fmt::print("  Lectern  {}\n", step_summary(res.lectern[w.name]));
        if (!pytorch) continue;
        std::fflush(stdout);
        argv = {o.python, o.script};
        for (const std::string& a : child_flags(o, w.name, o.threads)) argv.push_back(a);
        std::vector<Record> records = run_workload(argv, "PyTorch " + w.name);
        for (const Record& r : records)
            if (r.string("kind") == "meta") {
                if (w.name == res.order.front())
                    fmt::print("  PyTorch: torch {}, {} threads, {}\n", r.string("torch"), r.number("threads"),
                               r.string("environment"));
            } else {
                res.pytorch[w.name].push_back(r);
            }
        failures += res.pytorch[w.name].empty();
        fmt::print("  PyTorch  {}\n", step_summary(res.pytorch[w.name]));
    }
    print_report(res);
    return failures > 0 ? 1 : 0;
}

// A workload's time in ms: a training step, or a decoded token at the longest length; 0 if it failed.
double workload_ms(const std::vector<Record>& records) {
    double ms = 0, tokens = 0;
    for (const Record& r : records) {
        if (r.string("kind") == "train") return r.number("step_ms");
        if (r.string("kind") == "decode" && r.number("tokens") > tokens)
            tokens = r.number("tokens"), ms = r.number("ms_per_token");
    }
    return ms;
}

// --threads-sweep: each workload at each thread count, Lectern beside PyTorch,
// and each one's scaling efficiency t(T0) T0 / (t(T) T) against the first count T0.
int sweep(const Options& o) {
    fmt::print("bench_models: thread sweep {} | this process may use {} cores | medians of {} steps after {} warm-up\n",
               fmt::join(o.sweep, ","), autograd::available_cores(), o.run.steps, o.run.warmup);
    fmt::print("machine: {}\n", machine_line());
    const std::string missing = pytorch_missing(o);
    if (!missing.empty()) fmt::print("PyTorch: not run ({})\n", missing);
    fmt::print("\n{:<18} {:>7} {:>12} {:>11} {:>12} {:>11} {:>8}\n", "workload", "threads", "Lectern ms", "efficiency",
               "PyTorch ms", "efficiency", "ratio");
    const std::string self = self_path();
    int failures = 0;
    for (const Workload& w : workloads()) {
        if (o.workload != "all" && o.workload != w.name) continue;
        double lectern0 = 0, pytorch0 = 0;
        for (int t : o.sweep) {
            std::vector<std::string> argv = {self, "--json"};
            for (const std::string& a : child_flags(o, w.name, t)) argv.push_back(a);
            const double lectern = workload_ms(run_workload(argv, "Lectern " + w.name));
            double pytorch = 0;
            if (missing.empty()) {
                argv = {o.python, o.script};
                for (const std::string& a : child_flags(o, w.name, t)) argv.push_back(a);
                pytorch = workload_ms(run_workload(argv, "PyTorch " + w.name));
            }
            failures += lectern == 0;
            if (t == o.sweep.front()) lectern0 = lectern, pytorch0 = pytorch;
            auto efficiency = [&](double base, double now) {
                return base > 0 && now > 0 ? fmt::format("{:.0f}%", 100 * base * o.sweep.front() / (now * t)) : "-";
            };
            fmt::print("{:<18} {:>7} {:>12.3f} {:>11} {:>12} {:>11} {:>8}\n", w.name, t, lectern,
                       efficiency(lectern0, lectern), pytorch > 0 ? fmt::format("{:.3f}", pytorch) : "-",
                       efficiency(pytorch0, pytorch),
                       pytorch > 0 && lectern > 0 ? fmt::format("{:.2f}x", pytorch / lectern) : "-");
            std::fflush(stdout);
        }
    }
    return failures > 0 ? 1 : 0;
}

// The busy processes of --load stop after this long even if the driver is stopped: more
// than the loaded runs of the longest workload take.
constexpr unsigned kBusySeconds = 1800;

// --load N: each workload's time alone; beside a second Lectern run of the same workload
// started at the same moment (two students' trainings on one laptop: the slower of the two
// is reported); and beside N busy processes, Lectern and PyTorch alike. A machine of C cores
// with N busy processes gives a program about C / (N + C) of itself.
int loaded(const Options& o) {
    const int cores = autograd::available_cores();
    fmt::print(
        "bench_models --load {}: each workload alone, beside a second Lectern run of itself, and beside {} "
        "busy processes | {} threads on {} cores | medians of {} steps after {} warm-up\n",
        o.load, o.load, o.threads, cores, o.run.steps, o.run.warmup);
    fmt::print("machine: {}\n", machine_line());
    const std::string missing = pytorch_missing(o);
    if (!missing.empty()) fmt::print("PyTorch: not run ({})\n", missing);
    fmt::print("\n{:<16} {:>9} {:>15} {:>15} {:>9} {:>15} {:>10}\n", "workload (ms)", "Lectern", "beside itself",
               fmt::format("{} busy", o.load), "PyTorch", fmt::format("{} busy", o.load), "PT/Lectern");
    auto ratio = [](double base, double now) { return base > 0 && now > 0 ? now / base : 0.0; };
    auto cell = [&](double base, double now) {
        return now > 0 ? fmt::format("{:.2f} ({:.1f}x)", now, ratio(base, now)) : std::string("-");
    };
    const std::string self = self_path();
    int failures = 0;
    double worst_beside = 0, worst_loaded = 0;
    bool ahead = true;
    for (const Workload& w : workloads()) {
        if (o.workload != "all" && o.workload != w.name) continue;
        std::vector<std::string> lectern = {self, "--json"}, pytorch = {o.python, o.script};
        for (const std::string& a : child_flags(o, w.name, o.threads)) lectern.push_back(a), pytorch.push_back(a);
        const double alone = workload_ms(run_workload(lectern, "Lectern " + w.name));
        const double pt_alone = missing.empty() ? workload_ms(run_workload(pytorch, "PyTorch " + w.name)) : 0;
        const StartedChild first = start_child(lectern), second = start_child(lectern);
        const double beside = std::max(workload_ms(parse_records(finish_child(first).stdout_text)),
                                       workload_ms(parse_records(finish_child(second).stdout_text)));
        double busy = 0, pt_busy = 0;
        {
            BusyProcesses others(o.load, kBusySeconds);
            busy = workload_ms(run_workload(lectern, "Lectern " + w.name + " beside busy processes"));
            if (missing.empty())
                pt_busy = workload_ms(run_workload(pytorch, "PyTorch " + w.name + " beside busy processes"));
        }
        failures += alone == 0 || beside == 0 || busy == 0;
        worst_beside = std::max(worst_beside, ratio(alone, beside));
        worst_loaded = std::max(worst_loaded, ratio(alone, busy));
        if (pt_busy > 0 && busy >= pt_busy) ahead = false;
        fmt::print("{:<16} {:>9.2f} {:>15} {:>15} {:>9} {:>15} {:>10}\n", w.name, alone, cell(alone, beside),
                   cell(alone, busy), pt_alone > 0 ? fmt::format("{:.2f}", pt_alone) : "-", cell(pt_alone, pt_busy),
                   pt_busy > 0 && busy > 0 ? fmt::format("{:.2f}x", pt_busy / busy) : "-");
        std::fflush(stdout);
    }
    fmt::print(
        "\nbeside itself: the slower of the two runs, at worst {:.2f}x its time alone (two runs sharing the "
        "machine evenly: 2x)\n",
        worst_beside);
    fmt::print("{} busy: at worst {:.2f}x its time alone (a fair share of the machine: {:.1f}x); {}\n", o.load,
               worst_loaded, static_cast<double>(o.load + cores) / cores,
               missing.empty() ? (ahead ? "ahead of PyTorch under the same load on every workload"
                                        : "NOT ahead of PyTorch under the same load on every workload")
                               : "PyTorch not run");
    return failures > 0 ? 1 : 0;
}

// --json: one workload in this process, its records as JSON lines on stdout.
int run_one(const Options& o) {
    for (const Workload& w : workloads())
        if (w.name == o.workload) {
            for (const Record& r : w.run(o.run)) fmt::print("{}\n", to_json_line(r));
            return 0;
        }
    throw std::runtime_error(fmt::format("--json needs one --workload, got '{}'", o.workload));
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    std::vector<std::string> names = {"all"};
    std::string list;
    for (const Workload& w : workloads()) {
        names.push_back(w.name);
        list += fmt::format("\n  {:<17} {}", w.name, w.description);
    }
    CLI::App app{
        "Time Lectern's training steps and decoding, beside PyTorch's when it is installed (figures only, never "
        "fails on time)."};
    app.add_option("--workload", o.workload, "all, or one of:" + list)->check(CLI::IsMember(names));
    app.add_option("--steps", o.run.steps, "timed training steps per workload (default 30; --quick: 3)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--warmup", o.run.warmup, "untimed steps first (default 5; --quick: 1)")
        ->check(CLI::Range(0, 100000));
    app.add_flag("--quick", o.run.quick, "a short run (seconds): few steps, a small sgemm, decoding 16 tokens only");
    app.add_option("--threads", o.threads,
                   "threads (BLAS; PyTorch's intra-op threads); default: the cores this "
                   "process may use")
        ->check(CLI::Range(1, 256));
    app.add_option("--threads-sweep", o.sweep,
                   "run each workload at each of these thread counts (e.g. 1,2,4) and "
                   "print the step times and scaling efficiency")
        ->delimiter(',')
        ->check(CLI::Range(1, 256));
    app.add_option("--load", o.load,
                   "N busy processes (0 for none): print each workload alone, beside a second run "
                   "of itself, and beside the N processes, Lectern and PyTorch")
        ->check(CLI::Range(0, 64))
        ->excludes("--threads-sweep");
    app.add_option("--data", o.run.data_dir, "folder of Fashion-MNIST's gzipped IDX files")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--no-pytorch", o.no_pytorch, "do not run the PyTorch reference even if it is installed");
    app.add_option("--python", o.python,
                   "the Python that has torch (default /usr/bin/python3, Debian's python3-torch)");
    app.add_option("--pytorch-script", o.script, "the PyTorch reference script")->check(CLI::ExistingFile);
    app.add_flag("--json", o.json,
                 "run one --workload in this process and print its figures as JSON lines (what the "
                 "driver reads from each child)");
    if (int status = run::parse_flags(app, argc, argv, "bench_models",
                                      [&] {
                                          if (o.json && o.workload == "all")
                                              throw CLI::ValidationError("--json", "needs one --workload");
                                          if (o.run.quick && app.count("--steps") == 0) o.run.steps = 3;
                                          if (o.run.quick && app.count("--warmup") == 0) o.run.warmup = 1;
                                      });
        status >= 0)
        return status;
    return run::run_program("bench_models", false, [&] {
        autograd::set_num_threads(o.threads);
        return o.json ? run_one(o) : !o.sweep.empty() ? sweep(o) : o.load >= 0 ? loaded(o) : drive(o);
    });
}
