#include "lectern/run/flags/model_flags.h"

#include <fmt/format.h>

#include "lectern/nn/make_positional_encoding.h"
#include "lectern/run/flags/flags.h"

namespace run {

void add_model_flags(FlagGroup& group, ModelFlags& m, const LayersFlag& layers) {
    group.add(layers.name, m.layers, layers.help)->check(CLI::Range(1, 64));
    group.add("--d-model", m.d_model, "model width D")->check(CLI::Range(2, 8192));
    group.add("--heads", m.heads, "attention heads h (must divide --d-model)")->check(CLI::Range(1, 256));
    group.add("--d-ff", m.d_ff, "feed-forward width")->check(CLI::Range(1, 65536));
    group.add("--dropout", m.dropout, "dropout probability")->check(finite_range(0.0, 0.99));
}

void check_model_flags(const ModelFlags& m) {
    if (m.d_model % m.heads != 0)
        throw CLI::ValidationError("--heads",
                                   fmt::format("must divide --d-model ({} does not divide {})", m.heads, m.d_model));
}

void check_positions_flag(const std::string& positions, const ModelFlags& m) {
    if (positions == "concatenated" && nn::default_concat_width(m.d_model) == 0)
        throw CLI::ValidationError("--positions",
                                   fmt::format("concatenated keeps a quarter of --d-model for the positions' "
                                               "code, at least 2: needs --d-model 8 or more, not {}",
                                               m.d_model));
}

}  // namespace run
