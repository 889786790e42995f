/* Rank 1 posts three receives in a loop; rank 0 sends one message; rank 1 waits for the first
 * receive only: two requests of one call site are still pending at MPI_Finalize (one finding,
 * count 2). Issue 28 item 3.
 * np: 2
 * expect: request_not_completed ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[3] = {0};
    MPI_Request requests[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(&values[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &requests[i]); /* <- reported */
        MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&values[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
