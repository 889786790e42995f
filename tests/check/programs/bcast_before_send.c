/* Rank 1 waits for a message rank 0 sends only after a Bcast that rank 1 joins later: it works
 * only because this MPI's small Bcast does not synchronize the root with the others.
 * np: 2
 * expect: potential_deadlock ranks 0,1 line 14
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); /* <- reported */
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
