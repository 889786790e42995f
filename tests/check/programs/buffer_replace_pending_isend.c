/* MPI_Sendrecv_replace on the buffer of a pending send: rank 0 sends a with MPI_Isend, then
 * exchanges a in place (the receive overwrites what the Isend may still be reading). Issue 28 item 4.
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
        MPI_Isend(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q);
        MPI_Sendrecv_replace(a, 4, MPI_INT, 1, 1, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(b, 4, MPI_INT, 0, 2, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
