#pragma once
// One measurement as one line of flat JSON, the format bench_models' workloads
// and pytorch_reference.py both print and the driver reads back:
//   {"framework": "lectern", "workload": "copy_small", "step_ms": 21.4, ...}
// Values are strings or numbers; nothing is nested.
#include <map>
#include <optional>
#include <string>

namespace benchmarks {

struct Record {
    std::map<std::string, std::string> strings;
    std::map<std::string, double> numbers;

    double number(const std::string& key) const;       // NaN when absent
    std::string string(const std::string& key) const;  // "" when absent
};

std::string to_json_line(const Record& r);
// nullopt unless `line` is one flat JSON object (other output is skipped by the
// reader); null and true/false values are dropped.
std::optional<Record> parse_json_line(const std::string& line);

}  // namespace benchmarks
