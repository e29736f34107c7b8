#include "lectern/run/shell/data_parallel_run.h"

#include <cstring>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "lectern/run/shell/console.h"

namespace run {

using autograd::Tensor;

distributed::Communicator& join_job() {
    distributed::Communicator& comm = distributed::Communicator::world();
    console_quiet() = !comm.is_root();
    return comm;
}

void require_batch_per_rank(const std::string& flag, std::int64_t batch) {
    const int ranks = distributed::Communicator::world().size();
    if (batch < ranks)
        throw CLI::ValidationError(flag, fmt::format("{} rows cannot be shared by the {} processes of this job", batch,
                                                     ranks));
}

void seed_dropout(std::uint64_t seed, const distributed::Communicator& comm) {
    autograd::manual_seed(seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(comm.rank()));
}

Tensor gathered_dropout_state(const distributed::Communicator& comm) {
    const autograd::Generator::State mine = autograd::default_generator().state();
    std::vector<unsigned char> all = comm.all_gather(mine.data(), sizeof mine);
    Tensor t = Tensor::empty({comm.size(), static_cast<std::int64_t>(mine.size())}, autograd::Dtype::int64);
    std::memcpy(t.raw_data(), all.data(), all.size());
    return t;
}

void restore_dropout_state(const nn::RunRecord& record, const std::string& path,
                           const distributed::Communicator& comm) {
    auto it = record.tensors.find("generator.dropout");
    autograd::Generator::State state{};
    if (it == record.tensors.end() || it->second.dtype() != autograd::Dtype::int64 || it->second.dim() != 2 ||
        it->second.size(1) != static_cast<std::int64_t>(state.size()))
        throw std::runtime_error(fmt::format("{} holds no dropout generators", path));
    if (it->second.size(0) != comm.size())
        throw std::runtime_error(
            fmt::format("{} was saved by a job of {} process{}; resume it with as many (mpirun -np "
                        "{}), not {}",
                        path, it->second.size(0), it->second.size(0) == 1 ? "" : "es", it->second.size(0),
                        comm.size()));
    std::memcpy(state.data(), static_cast<const unsigned char*>(it->second.raw_data()) + comm.rank() * sizeof state,
                sizeof state);
    autograd::default_generator().set_state(state);
}

StepDecision decide(const distributed::Communicator& comm, int stop_signal, bool save_due) {
    return {comm.max(stop_signal), comm.max(save_due ? 1 : 0) != 0};
}

}  // namespace run
