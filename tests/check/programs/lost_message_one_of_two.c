/* Rank 0 sends its result twice (once per branch it took, a bug); rank 1 receives one message:
 * the second, eager and small, completes on rank 0 and is never received by MPI_Finalize. In
 * standard mode it is also a potential deadlock: without buffering rank 0 would wait in it
 * forever. Issue 28 items 3 and 8.
 * np: 2
 * slice: none
 * expect: lost_message ranks 0 line 20
 * expect: potential_deadlock ranks 0,1 knot 0,1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, result = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&result, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        if (result > 0)
            MPI_Send(&result, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); /* <- reported */
    } else {
        MPI_Recv(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
