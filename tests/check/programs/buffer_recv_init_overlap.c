/* A persistent receive started while a nonblocking receive into overlapping bytes is pending: the
 * Start puts the persistent receive in flight over bytes MPI may be writing. Issue 28 item 4.
 * np: 2
 * slice: none
 * expect: pending_buffers_overlap ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    double a[4] = {0};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv_init(a + 1, 2, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Irecv(a, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Start(&q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        MPI_Request_free(&q[1]);
    } else {
        MPI_Send(a, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        MPI_Send(a, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
