// The gradient-check report: runs the float64 gradcheck of every op and every
// module and prints one row each, then a summary line.
//   ./build/tests/gradcheck/gradcheck_report            all cases
//   ./build/tests/gradcheck/gradcheck_report attention   cases whose name contains "attention"
// Exit status 1 if any case fails.
#include <chrono>
#include <string>

#include <fmt/format.h>

#include "catalog.h"
#include "lectern/run/flags/flags.h"

int main(int argc, char** argv) {
    std::string filter;
    CLI::App app{"The float64 gradient check of every op and module, one row each, then a summary."};
    app.add_option("filter", filter, "only the cases whose name contains this text");
    if (int status = run::parse_flags(app, argc, argv, "gradcheck_report", [] {}); status >= 0) return status;

    fmt::print("float64 gradient checks: central differences, eps 1e-6, pass if |a - n| <= 1e-5 + 1e-3 |n|\n\n");
    fmt::print("{:<9} {:<32} {:<40} {:>10} {:>10}  {}\n", "layer", "name", "shapes", "max abs", "max rel", "result");
    int passed = 0, failed = 0;
    std::int64_t elements = 0;
    auto start = std::chrono::steady_clock::now();
    for (const auto& c : gradcheck_catalog::all_cases()) {
        if (!filter.empty() && c.name.find(filter) == std::string::npos) continue;
        autograd::GradcheckReport r = c.run();
        elements += r.elements_checked;
        (r.passed ? passed : failed) += 1;
        fmt::print("{:<9} {:<32} {:<40} {:>10.2e} {:>10.2e}  {}\n", c.layer, c.name, c.shapes, r.max_abs_error,
                   r.max_rel_error, r.passed ? "pass" : "FAIL");
        if (!r.passed) fmt::print("          {}\n", r.message());
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("\n{} passed, {} failed ({} elements checked in {:.1f} s)\n", passed, failed, elements, s);
    return failed == 0 ? 0 : 1;
}
