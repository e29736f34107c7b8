#include "lectern/run/flags/adamw_flags.h"

#include "lectern/run/flags/flags.h"

namespace run {

void add_adamw_flags(FlagGroup& group, AdamWFlags& f, const std::string& lr_help) {
    group.add("--lr", f.lr, lr_help)->check(finite_positive());
    group
        .add("--weight-decay", f.weight_decay,
             "AdamW's decoupled weight decay of the weight matrices and embeddings (none on biases and LayerNorm "
             "gains)")
        ->check(finite_range(0.0, 10.0));
    group.add("--clip", f.clip, "clip the gradients' global norm to this")->check(finite_positive());
}

}  // namespace run
