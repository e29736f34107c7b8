#include "lectern/distributed/communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace distributed {

namespace {

// MPI reports an error by aborting the job with its own message (its default
// handler, MPI_ERRORS_ARE_FATAL): a rank that dies takes the others down with
// it rather than leaving them waiting in a collective.
void finalize_at_exit() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

}  // namespace

Communicator::Communicator() {
    if (!std::getenv("OMPI_COMM_WORLD_SIZE")) return;  // not started by mpirun: a job of one
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);  // only the main thread calls MPI
    std::atexit(finalize_at_exit);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    mpi_ = true;
}

Communicator& Communicator::world() {
    static Communicator c;
    return c;
}

std::vector<unsigned char> Communicator::all_gather(const void* data, std::size_t bytes) const {
    std::vector<unsigned char> out(bytes * static_cast<std::size_t>(size_));
    if (!mpi_) {
        std::memcpy(out.data(), data, bytes);
        return out;
    }
    // MPI counts are ints: large buffers go as runs of at most 1 GiB, each gathered in rank order.
    constexpr std::size_t kRun = std::size_t{1} << 30;
    std::vector<unsigned char> part(std::min(bytes, kRun) * static_cast<std::size_t>(size_));
    for (std::size_t at = 0; at < bytes || (bytes == 0 && at == 0); at += kRun) {
        const std::size_t n = std::min(kRun, bytes - at);
        MPI_Allgather(static_cast<const unsigned char*>(data) + at, static_cast<int>(n), MPI_BYTE, part.data(),
                      static_cast<int>(n), MPI_BYTE, MPI_COMM_WORLD);
        for (int r = 0; r < size_; ++r)
            std::memcpy(out.data() + static_cast<std::size_t>(r) * bytes + at,
                        part.data() + static_cast<std::size_t>(r) * n, n);
        if (bytes == 0) break;
    }
    return out;
}

void Communicator::broadcast(void* data, std::size_t bytes, int root) const {
    if (!mpi_) return;
    constexpr std::size_t kRun = std::size_t{1} << 30;
    for (std::size_t at = 0; at < bytes; at += kRun)
        MPI_Bcast(static_cast<unsigned char*>(data) + at, static_cast<int>(std::min(kRun, bytes - at)), MPI_BYTE, root,
                  MPI_COMM_WORLD);
}

std::int64_t Communicator::sum(std::int64_t value) const {
    if (!mpi_) return value;
    std::int64_t out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return out;
}

double Communicator::sum(double value) const {
    // Gathered and added in rank order: every rank gets the same bits.
    std::vector<unsigned char> all = all_gather(&value, sizeof value);
    double total = 0;
    for (int r = 0; r < size_; ++r) {
        double v;
        std::memcpy(&v, all.data() + static_cast<std::size_t>(r) * sizeof v, sizeof v);
        total += v;
    }
    return total;
}

int Communicator::max(int value) const {
    if (!mpi_) return value;
    int out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return out;
}

}  // namespace distributed
