/* Rank 1 waits for two receives from rank 0, which sends one and finalizes. Issue 28 item 8.
 * mpi: hang
 * np: 2
 * slice: none
 * expect: stuck_on_terminated ranks 1,0 knot 0 line 18,22
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, values[2] = {0};
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&values[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Irecv(&values[1], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &requests[1]);
        MPI_Waitall(2, requests, MPI_STATUSES_IGNORE); /* <- reported */
    } else {
        MPI_Send(&values[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
