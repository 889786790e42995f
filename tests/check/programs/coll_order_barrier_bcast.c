/* Collectives in different orders: rank 0 calls Barrier then Bcast, rank 1 Bcast then Barrier.
 * np: 2
 * expect: collective_mismatch ranks 0,1
 * mpi: hang abort completes
 * (No line expected: which rank's call is reported first depends on which record arrives first.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD); /* <- reported */
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
