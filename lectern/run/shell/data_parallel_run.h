#pragma once
// What a training program adds to run under `mpirun -np N` (distributed/):
// only rank 0 speaks and writes; the ranks agree on when to save and stop;
// each rank's dropout draws from its own stream, and a checkpoint keeps every
// rank's, so a run resumes with the same N to the same result.
#include <cstdint>
#include <string>

#include "lectern/autograd/autograd.h"
#include "lectern/distributed/communicator.h"
#include "lectern/nn/checkpoint.h"

namespace run {

// Call first in main: the job (MPI is initialised under mpirun), with every
// rank but 0 quiet.
distributed::Communicator& join_job();

// CLI::ValidationError unless each rank of the job gets a row of every batch.
void require_batch_per_rank(const std::string& flag, std::int64_t batch);

// Seeds dropout's generator for this rank: `seed` on rank 0 (as a job of one),
// a stream of its own on each other rank.
void seed_dropout(std::uint64_t seed, const distributed::Communicator& comm);

// Every rank's dropout generator, int64 [ranks, 6], and back: the record's
// rank count must be the job's.
autograd::Tensor gathered_dropout_state(const distributed::Communicator& comm);
void restore_dropout_state(const nn::RunRecord& record, const std::string& path, const distributed::Communicator& comm);

// The ranks' agreement on a step boundary: the stop signal any rank received,
// and whether any rank's save schedule is due.
struct StepDecision {
    int stop;
    bool save;
};
StepDecision decide(const distributed::Communicator& comm, int stop_signal, bool save_due);

}  // namespace run
