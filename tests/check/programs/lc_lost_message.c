/* Rank 0 sends two messages, the second in buffered mode (it completes at once); rank 1
 * receives only the first: the second is never received by MPI_Finalize. (In standard mode the
 * same program is also a potential deadlock: rank 0's send could block forever.) Issue 28 item 3.
 * np: 2
 * expect: lost_message ranks 0 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    char buffer[MPI_BSEND_OVERHEAD + sizeof value];
    void *detached;
    int size = sizeof buffer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Buffer_attach(buffer, size);
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Bsend(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD); /* <- reported */
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Buffer_detach(&detached, &size);
    MPI_Finalize();
    return 0;
}
