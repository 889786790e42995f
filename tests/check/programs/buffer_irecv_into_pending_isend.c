/* A receive into the buffer of a pending send: rank 0 sends a and, before the send completes,
 * posts a receive into its last element; the message sent may carry either value, and the send's
 * buffer changed in flight. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: pending_buffers_overlap ranks 0 line 20
 * expect: send_buffer_modified ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[4] = {1, 2, 3, 4}, b[4] = {0};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(a + 3, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    } else {
        MPI_Recv(b, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
