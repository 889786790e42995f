/* Rank 1 starts its persistent receive alone and then starts it again with the rest of its
 * requests (a report to its right neighbour, MPI_PROC_NULL at the edge) in one MPI_Startall,
 * while the first start is still active. Errors return here, so the job goes on. Issue 28 items 3
 * and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: request_started_twice ranks 1 line 22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 0, out = 1;
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Recv_init(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Send_init(&out, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &requests[1]);
        MPI_Start(&requests[0]);
        MPI_Startall(2, requests); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
        MPI_Request_free(&requests[0]);
        MPI_Request_free(&requests[1]);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&out, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
