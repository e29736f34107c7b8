#pragma once
// The processes of a data-parallel job, on Open MPI (000's and 004's models
// are trained this way at scale; here on the cores of several machines).
// Started by `mpirun -np N`, a program is one of N ranks; started alone, it is
// rank 0 of 1 and every collective below returns its input, so the same code
// runs with and without mpirun.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lectern/autograd/autograd.h"

namespace distributed {

class Communicator {
public:
    // The job this process belongs to: MPI is initialised on first use when
    // the process was started by mpirun (Open MPI's OMPI_COMM_WORLD_SIZE is
    // set), and finalised at exit.
    static Communicator& world();

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool is_root() const { return rank_ == 0; }

    // Each rank's `bytes` bytes, in rank order, on every rank: [size * bytes].
    std::vector<unsigned char> all_gather(const void* data, std::size_t bytes) const;
    // `data` from rank `root` on every rank.
    void broadcast(void* data, std::size_t bytes, int root = 0) const;
    // The sum of a count, and the largest of a flag, over the ranks.
    std::int64_t sum(std::int64_t value) const;
    double sum(double value) const;
    int max(int value) const;

private:
    Communicator();
    int rank_ = 0, size_ = 1;
    bool mpi_ = false;
};

}  // namespace distributed
