// A healthy C++ job for `mpiguard run` and `protect` (tests/cxx/cxx_tools.sh): a ring of
// nonblocking messages, an in-place Allreduce of 64 ints a rank through MPI's C API, and an
// Allgather of 16 through MPI's C++ bindings (MPI::Comm, which both Open MPI 4.1 and MPICH 4.0
// still ship; they call the C functions). Rank 0 prints the results, which the tools must leave
// byte for byte as they are.
#include <mpi.h>

#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const int next = (rank + 1) % nprocs, prev = (rank + nprocs - 1) % nprocs;
    int got = -1;
    MPI_Request requests[2];
    MPI_Irecv(&got, 1, MPI_INT, prev, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&rank, 1, MPI_INT, next, 1, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    if (got != prev) {
        std::fprintf(stderr, "rank %d: got %d from the ring, not %d\n", rank, got, prev);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    std::vector<int> values(64), sums(64), gathered(16 * nprocs);
    for (int i = 0; i < 64; i++)
        values[i] = sums[i] = rank * 1000 + i;
    MPI_Allreduce(MPI_IN_PLACE, sums.data(), 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI::COMM_WORLD.Allgather(values.data(), 16, MPI::INT, gathered.data(), 16, MPI::INT);
    if (rank == 0) {
        std::printf("ring: %d ranks, last from %d\n", nprocs, got);
        for (int sum : sums)
            std::printf("%d ", sum);
        std::printf("\n");
        for (int value : gathered)
            std::printf("%d ", value);
        std::printf("\n");
    }
    MPI_Finalize();
    return 0;
}
