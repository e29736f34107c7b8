#pragma once
// What an experiment prints and draws: a table of what it measured, the
// figures, and a last line saying whether the claim held, with the numbers
// that decided it.
#include <string>
#include <vector>

#include "examples/experiments/experiment.h"
#include "lectern/plot/figure.h"

namespace run::experiments {

// Columns as wide as their widest cell, the header underlined:
//   d_k   scaled   entropy
//   ---   ------   -------
//   16    yes      2.71
class Table {
public:
    explicit Table(std::vector<std::string> header);
    void row(std::vector<std::string> cells);  // ValueError unless as many cells as the header
    void print() const;

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

// The last line: "claim held: <because>" or "claim NOT held: <because>" for a full run. A quick
// run (--quick) is a smoke test, too short and over too few seeds to decide anything: it prints
// "quick run: no verdict (smoke test): <because>", whatever the numbers say.
std::string verdict_line(const Options& options, bool held, const std::string& because);
void verdict(const Options& options, bool held, const std::string& because);

// <figures>/<stem>.png and .svg when --figures names a folder; says where.
void draw(const Options& options, const std::string& stem, const plot::Figure& figure);

}  // namespace run::experiments
