#pragma once
// A figure written as every output is (output_files.h): drawn in memory as PNG
// and as SVG (plot::render), each written atomically; a failure is an error
// naming the file, and nothing is left half-written.
#include <string>
#include <vector>

#include "lectern/plot/figure.h"

namespace run {

// Writes `stem`.png and `stem`.svg; returns the two paths.
std::vector<std::string> write_figure(const std::string& stem, const plot::Figure& figure);

}  // namespace run
