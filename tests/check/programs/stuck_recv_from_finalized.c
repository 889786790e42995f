/* Rank 0 finalizes; rank 1 receives from it and waits for rank 0, never the other way round.
 * mpi: hang
 * np: 2
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 14,15
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    MPI_Finalize();
    return 0;
}
