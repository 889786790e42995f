/* Rank 0 starts its persistent send for the last step and frees nothing and waits for nothing:
 * the started request is still active at MPI_Finalize (an active request is not also reported as
 * never freed). Rank 1 receives the message. Issue 28 items 3 and 8 (persistent requests).
 * np: 2
 * slice: none
 * expect: request_not_completed ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, value = 1;
    MPI_Request request;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request); /* <- reported */
        MPI_Start(&request);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
