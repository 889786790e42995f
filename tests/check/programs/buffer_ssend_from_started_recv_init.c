/* A synchronous send from the buffer of a started persistent receive: rank 0 starts its
 * MPI_Recv_init request on a, then sends a[2..5] with MPI_Ssend before the receive completed. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: pending_buffers_overlap ranks 0 line 18
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Request q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv_init(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Start(&q);
        MPI_Ssend(a + 2, 4, MPI_INT, 1, 1, MPI_COMM_WORLD); /* <- reported */
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Request_free(&q);
    } else {
        MPI_Recv(b, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
