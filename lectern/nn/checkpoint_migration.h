#pragma once
// Reading the older checkpoint formats as the current one (checkpoint.h, version 6). Used
// by the reader (checkpoint_load.cpp); internal to nn. How each differs from version 6:
//   version 1:        one step count for the whole optimizer, the header's; no "step.<i>"
//                     state (each parameter's update count came with version 2).
//   versions 1 and 2: the ViT's position table E_pos is PatchEmbedding's own parameter
//                     "embed.position"; now it is a LearnedPositionalEmbedding, whose
//                     table is "embed.position.weight".
//   versions 1 to 3:  no run records (kind 2), and so no text (dtype code 3).
//   version 4:        the same bytes; but a program may have recorded more flags since
//                     (copy_task's --task, --positions, --attention ...), so a record of
//                     version 4 may lack some, where one of version 5 or later holds every
//                     flag its program records but those the program says the meaning of
//                     when absent (RunRecord::current_format).
//   versions 1 to 5:  no saved buffers (kind 3): no module had any before BatchNorm1d's
//                     running statistics. Version 5's run records are version 6's.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/nn/checkpoint_format.h"

namespace nn::checkpoint_migration {

inline constexpr std::uint32_t kOldestVersion = 1;
// The first version whose run records hold every flag their program records.
inline constexpr std::uint32_t kCompleteRecords = 5;

// The largest record kind a file of `version` may hold.
checkpoint_format::Kind last_kind(std::uint32_t version);

// The name the current modules give the parameter that a file of `version` names `name`.
std::string parameter_name(std::uint32_t version, const std::string& name);

// Makes `state`, the optimizer state of a file of `version` whose header holds `step`, the
// state a current optimizer loads.
void upgrade_optimizer_state(std::uint32_t version, std::int64_t step,
                             std::vector<std::pair<std::string, autograd::Tensor>>& state);

}  // namespace nn::checkpoint_migration
