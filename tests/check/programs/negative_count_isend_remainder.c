/* Each rank sends the part of 10 values past its offset of 6 per rank: the last rank's remainder
 * comes out negative (10 - 6 * 2 = -2) and its Isend refuses the count. Errors return here, so the
 * job goes on. Issue 28 items 2 and 8.
 * np: 2
 * slice: none
 * expect: negative_count ranks 1 line 23
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[10] = {0}, received[10];
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int offset = 6 * (rank + 1) - 6, remainder = 10 - 6 * (rank + 1);
    if (rank == 0) {
        MPI_Isend(values + offset, remainder, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(received, 10, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend(values + offset, remainder, MPI_INT, 0, 1, MPI_COMM_WORLD, /* <- reported */
                  &request);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
