/* Rank 1 starts its persistent receive a second time while the first start is still active
 * (MPI 3.1 §3.9 forbids it; under MPI_ERRORS_RETURN the second Start returns an error or is
 * ignored), then completes it and frees it. Issue 28 item 3.
 * np: 2
 * expect: request_started_twice ranks 1 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
        MPI_Recv_init(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
        MPI_Start(&request);
        MPI_Start(&request); /* <- reported */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
        MPI_Request_free(&request);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
