/* Rank 0 collects results with wildcard receives (MPI_ANY_SOURCE) but counts one worker too few:
 * rank 1's result is received, rank 2's (sent after a barrier that follows rank 0's receive) is
 * never received by MPI_Finalize; a standard send, so also a potential deadlock of rank 2 with
 * rank 0, which waits in one barrier or the other (no line asserted: either is right). Issue 28
 * items 3 and 8 (wildcards).
 * np: 3
 * slice: none
 * expect: lost_message ranks 2 line 28
 * expect: potential_deadlock ranks 0,2,1 knot 0,2
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, result = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 1; i < size - 1; i++)
            MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* <- reported */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
