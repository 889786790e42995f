/* MUST paper Fig. 1d in the interleaving that deadlocks: rank 0 sends late, so rank 1's wildcard
 * receive takes rank 2's message and its receive from rank 2 never matches; rank 0's buffered send
 * is the potential deadlock found first.
 * np: 3
 * expect: potential_deadlock ranks 0,1,2
 * expect: deadlock ranks 1,2,0 knot 1,2 line 21
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        usleep(500000); /* the other interleaving: rank 2's message arrives first */
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
    } else {
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
