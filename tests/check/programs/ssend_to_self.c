/* Rank 0 sends synchronously to itself with no receive posted; rank 1 waits in a Barrier.
 * np: 2
 * expect: deadlock ranks 0,1 knot 0 line 13
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ssend(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* <- reported */
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
