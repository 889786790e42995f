/* A blocking receive into bytes a pending receive owns: rank 0 posts a receive into a[0..3],
 * then receives another message into a[2..5] with MPI_Recv before the first completed. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: pending_buffers_overlap ranks 0 line 17
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[8] = {0}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Request q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Recv(a + 2, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* <- reported */
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(b, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
