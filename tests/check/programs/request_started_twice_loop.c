/* Rank 1 starts its persistent receive once per step in a loop but waits only after the loop: the
 * second iteration starts it while the first start is still active. Errors return here, so the
 * job goes on. Issue 28 items 3 and 8 (persistent requests).
 * np: 2
 * slice: mpich
 * expect: request_started_twice ranks 1 line 20
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
        for (int step = 0; step < 2; step++)
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
