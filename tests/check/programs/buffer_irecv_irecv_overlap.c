/* Two pending receives into overlapping bytes: rank 0 posts a receive into a[0..4) and another
 * into a[2..6) before waiting for either; which message lands in a[2..4) is undefined (MPI 3.1
 * §3.7.2). Issue 28 item 4.
 * np: 2
 * slice: mpich
 * expect: pending_buffers_overlap ranks 0 line 19
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[8] = {0};
    MPI_Request q[2];
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(a, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(a + 2, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    } else {
        MPI_Send(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(a, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
