/* Rank 1 receives one message per step with a persistent receive, three steps; rank 0 sends two
 * and finalizes: rank 1's third start waits for a rank that ended. Issue 28 item 8.
 * mpi: hang
 * np: 2
 * slice: mpich
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 20,27
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Recv_init(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
        for (int step = 0; step < 3; step++) {
            MPI_Start(&request);
            MPI_Wait(&request, MPI_STATUS_IGNORE); /* <- reported */
        }
        MPI_Request_free(&request);
    } else {
        for (int step = 0; step < 2; step++)
            MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
