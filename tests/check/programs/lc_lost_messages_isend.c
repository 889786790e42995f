/* Rank 1 sends four tagged messages with Isend and frees each request (legal: MPI completes
 * them); rank 0 receives tags 0 and 1 only: two messages of one call site are never received
 * (one finding, count 2). Issue 28 item 3.
 * np: 2
 * expect: lost_message ranks 1 line 20
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[4] = {0};
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int tag = 0; tag < 2; tag++)
            MPI_Recv(&values[tag], 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int tag = 0; tag < 4; tag++) {
            MPI_Isend(&values[tag], 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &request);
            MPI_Request_free(&request);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
