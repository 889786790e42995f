// A C++ MPI program (MPI's C API from C++, the way LAMMPS uses it) for
// tests/integration/observe.sh: each rank passes a token to the next and all agree by an Allreduce
// when to stop, for SECONDS seconds.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace
{

class Ring
{
  public:
    explicit Ring(MPI_Comm comm) : comm_(comm)
    {
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
    }

    // One turn: the token moves one rank on; returns what this rank received.
    long turn(long token)
    {
        long received = 0;
        MPI_Sendrecv(&token, 1, MPI_LONG, (rank_ + 1) % size_, 0, &received, 1, MPI_LONG,
                     (rank_ + size_ - 1) % size_, 0, comm_, MPI_STATUS_IGNORE);
        return received;
    }

    // Whether every rank still wants to go on: the first rank whose clock says stop stops them all.
    bool all_going(bool going) const
    {
        int mine = going, all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm_);
        return all != 0;
    }

    int rank() const
    {
        return rank_;
    }

  private:
    MPI_Comm comm_;
    int rank_ = 0, size_ = 1;
};

} // namespace

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const double seconds = argc > 1 ? std::atof(argv[1]) : 2;
    Ring ring(MPI_COMM_WORLD);
    std::vector<long> tokens;
    const double start = MPI_Wtime();
    long token = ring.rank();
    while (ring.all_going(MPI_Wtime() - start < seconds))
        tokens.push_back(token = ring.turn(token));
    if (ring.rank() == 0)
        std::printf("ring: done after %zu turns\n", tokens.size());
    MPI_Finalize();
    return 0;
}
