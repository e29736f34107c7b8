#pragma once
// The flags of a transformer's size, shared by every program that builds one:
//   --layers N (the ViT's --depth), --d-model D, --heads h, --d-ff F, --dropout p
// with one check the flags cannot make alone: h divides D (003: d_k = D / h).
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "lectern/run/flags/flag_groups.h"

namespace run {

struct ModelFlags {
    std::int64_t layers, d_model, heads, d_ff;
    double dropout;
};

// `layers` names the layer count's flag and says what it counts.
struct LayersFlag {
    std::string name = "--layers", help = "N, layers";
};

// Declared in `group`: the model's, which a checkpoint records.
void add_model_flags(FlagGroup& group, ModelFlags& m, const LayersFlag& layers = {});

// CLI::ValidationError("--heads", ...) unless h divides D.
void check_model_flags(const ModelFlags& m);

// CLI::ValidationError("--positions", ...) when `positions` is "concatenated" and --d-model leaves
// its code no width (nn::default_concat_width: a quarter of D, even, so D of 8 or more).
void check_positions_flag(const std::string& positions, const ModelFlags& m);

}  // namespace run
