/* Ranks 0 and 1 enter a Barrier; rank 2 skips it and waits for a message from rank 0, which
 * rank 0 sends only after the Barrier.
 * np: 3
 * expect: deadlock ranks 0,2,1 knot 0,2 line 16
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD); /* <- reported */
        if (rank == 0)
            MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
