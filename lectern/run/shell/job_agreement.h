#pragma once
// The processes of an mpirun job must run one job: the same flags, the same
// model (its parameters' names and shapes), the same data and the same outputs
// asked of rank 0. Machines of a --hostfile job may hold different copies of a
// text, and an MPMD command line (`mpirun -np 1 A : -np 1 B`) may give ranks
// different flags; a gradient sum over parameters of different shapes would
// corrupt memory, and a different --lr on one rank a silently different model.
// So before the first collective that depends on them, the ranks compare a
// description of their run, line by line, with rank 0's.
#include <stdexcept>
#include <string>
#include <vector>

#include "lectern/distributed/communicator.h"
#include "lectern/nn/checkpoint.h"
#include "lectern/nn/module.h"

namespace run {

// Thrown on every rank when the ranks differ; its message names the first
// line that differs and the ranks' values. Rank 0 alone reports it.
struct JobMismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A run's description: "program: copy_task" first, then "flag --lr: 0.001", "parameter w_q.weight: [64, 64]",
// "text alphabet: crc32 1a2b3c4d", "writes --save: yes", one a line.
std::vector<std::string> job_description(const nn::RunRecord& record, const nn::Module& model,
                                         const std::vector<std::pair<std::string, bool>>& writes);

// Throws JobMismatch unless every rank's description equals rank 0's
// (a job of one agrees with itself, at no cost).
void require_same_job(const distributed::Communicator& comm, const std::vector<std::string>& description);

}  // namespace run
