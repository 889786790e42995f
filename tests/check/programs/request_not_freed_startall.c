/* Each rank sets up a persistent halo exchange (a send and a receive to the other rank), runs it
 * three times with MPI_Startall and MPI_Waitall, and frees only the receive: each rank's send is
 * never freed. Issue 28 items 3 and 8 (persistent requests).
 * np: 2
 * slice: mpich
 * expect: request_not_freed ranks 0 line 17
 * expect: request_not_freed ranks 1 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out = 0, in = 0;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Send_init(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &requests[0]); /* <- reported */
    MPI_Recv_init(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &requests[1]);
    for (int step = 0; step < 3; step++) {
        out = step;
        MPI_Startall(2, requests);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&requests[1]);
    MPI_Finalize();
    return 0;
}
