/* MPI_Sendrecv receiving into bytes of a pending receive: rank 0 posts a receive into a[4..7],
 * then a Sendrecv whose receive side writes a[2..5]. Issue 28 item 4.
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
        MPI_Irecv(a + 4, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Sendrecv(b, 4, MPI_INT, 1, 1, a + 2, 4, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Sendrecv(b, 4, MPI_INT, 0, 2, a, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
