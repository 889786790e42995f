/* Rank 1 sends a heartbeat each step with a persistent send (3 steps); rank 0 receives only the
 * first two: the third start's message is never received by MPI_Finalize; a standard send, so
 * also a potential deadlock with rank 0 in the barrier. Issue 28 items 3 and 8 (persistent
 * requests).
 * np: 2
 * slice: mpich
 * expect: lost_message ranks 1 line 19
 * expect: potential_deadlock ranks 0,1 knot 0,1 line 29
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, beat = 1;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Send_init(&beat, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &request); /* <- reported */
        for (int step = 0; step < 3; step++) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&request);
    } else {
        for (int step = 0; step < 2; step++)
            MPI_Recv(&beat, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
