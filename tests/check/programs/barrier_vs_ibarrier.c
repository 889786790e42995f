/* Rank 0 calls MPI_Barrier, rank 1 MPI_Ibarrier + MPI_Wait: blocking and nonblocking collectives
 * never match each other.
 * np: 2
 * expect: collective_mismatch ranks 0,1 line 16
 * mpi: hang abort completes
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD); /* <- reported */
    } else {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
