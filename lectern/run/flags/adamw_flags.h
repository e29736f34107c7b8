#pragma once
// The flags of AdamW (nn/optim/adamw.h) and the clipping before its step,
// shared by every program that trains with it:
//   --lr LR             the peak learning rate (the program's help says of which schedule)
//   --weight-decay W    AdamW's decoupled weight decay, of the weight matrices and
//                       embeddings only (nn::optim::weight_decay_groups)
//   --clip C            the gradients' global norm clipped to C
#include <string>

#include "lectern/run/flags/flag_groups.h"

namespace run {

struct AdamWFlags {
    double lr, weight_decay, clip;
};

void add_adamw_flags(FlagGroup& group, AdamWFlags& f, const std::string& lr_help);

}  // namespace run
